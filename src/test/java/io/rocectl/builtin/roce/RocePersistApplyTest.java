package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.op.RoceFixtures;
import io.rocectl.testing.FakeHost;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code roce_persist}'s apply path without root: a fake systemd host keeps its files in memory,
 * answers the persistence files' read from them, and takes RemoteFile's two steps (each file staged
 * beside its path, then all committed at once, in one command). The first run writes the boot configuration for
 * the selected NICs (all files in one command), the second finds it in place; a commit that fails changes no file. The real
 * files and a simulated reboot are {@code RoceModulesNetnsTest}'s (root).
 */
class RocePersistApplyTest {
    /** The fake host's files and links, and what reached it. */
    static final class Disk {
        final Map<String, String> files = new TreeMap<>();
        final Map<String, String> links = new TreeMap<>();
        final Map<String, String[]> staged = new LinkedHashMap<>();
        final List<String> commands = new ArrayList<>();
        boolean commitFails;
        int replaces;
    }

    static FakeHost host(Disk disk) {
        return host(disk, false);
    }

    /** The persistence files as the host prints them. */
    static String files(Disk disk) {
        StringBuilder sb = new StringBuilder();
        disk.files.forEach((p, body) -> sb.append("@@rocectl-file@@ ").append(p).append('\n').append(body).append('\n'));
        disk.links.forEach((p, t) -> sb.append("@@rocectl-link@@ ").append(p).append(' ').append(t).append('\n'));
        sb.append("@@rocectl-flag@@ ip /usr/sbin/ip\n@@rocectl-flag@@ systemd yes\n");
        return sb.toString();
    }

    /** With {@code inGather}, the gather brings the files (a root login's snapshot) as section host_files. */
    static FakeHost host(Disk disk, boolean inGather) {
        FakeHost h = new FakeHost("gpu01", "root");
        h.on(c -> c.script().contains("rocectl-section"),
                c -> FakeHost.ok(RoceFixtures.gatherOutput("8nic", null, null, null, RoceFixtures.ssh("8nic"))
                        + (inGather ? "@@rocectl-section@@ host_files\n" + files(disk) : "")));
        h.on(c -> c.script().contains("@@rocectl-file@@"), c -> FakeHost.ok(files(disk)));
        // RemoteFile's one command: quadruples KIND PATH ARG LENGTH, the contents one after the other on stdin
        h.on(c -> c.script().contains("iflag=fullblock"), c -> {
            if (disk.commitFails) return FakeHost.exit(1, "cannot replace /etc/rocectl/roce-routes.sh: every file is back as it was");
            List<String> a = c.scriptArgs();
            byte[] in = c.stdin() == null ? new byte[0] : c.stdin().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int at = 0;
            for (int i = 0; i + 3 < a.size(); i += 4) {
                String p = a.get(i + 1);
                switch (a.get(i)) {
                    case "del" -> {
                        disk.files.remove(p);
                        disk.links.remove(p);
                    }
                    case "link" -> disk.links.put(p, a.get(i + 2));
                    case "text" -> disk.files.put(p, a.get(i + 3));
                    default -> {
                        int n = Integer.parseInt(a.get(i + 3));
                        disk.files.put(p, new String(in, at, n, java.nio.charset.StandardCharsets.UTF_8));
                        at += n;
                    }
                }
            }
            disk.replaces++;
            return at == in.length ? FakeHost.ok("") : FakeHost.exit(1, "stdin not consumed: " + at + " of " + in.length);
        });
        h.on(c -> c.script().contains("rocectl.XXXXXX"), c -> {
            List<String> a = c.scriptArgs();
            String temp = a.get(0) + ".rocectl.T" + disk.staged.size();
            disk.staged.put(temp, new String[] {a.get(2), a.get(2).equals("link") ? a.get(1) : c.stdin()});
            return FakeHost.ok(temp + "\n");
        });
        h.on(c -> c.script().contains("every file is back as it was"), c -> {
            if (disk.commitFails) return FakeHost.exit(1, "cannot replace /etc/rocectl/roce-routes.sh: every file is back as it was");
            List<String> a = c.scriptArgs();
            for (int i = 0; i + 2 < a.size(); i += 3) {
                String p = a.get(i + 1);
                if (a.get(i).equals("del")) {
                    disk.files.remove(p);
                    disk.links.remove(p);
                    continue;
                }
                String[] s = disk.staged.remove(a.get(i + 2));
                if (s[0].equals("link")) disk.links.put(p, s[1]);
                else disk.files.put(p, s[1]);
            }
            return FakeHost.ok("");
        });
        h.on(c -> c.script().startsWith("rm -f"), c -> {
            c.scriptArgs().forEach(disk.staged::remove);
            return FakeHost.ok("");
        });
        h.on(c -> c.argv().get(0).equals("systemctl"), c -> {
            disk.commands.add(String.join(" ", c.argv()));
            return FakeHost.ok("");
        });
        return h;
    }

    static TaskContext ctx(FakeHost h, boolean check) {
        return new TaskContext("gpu01", h, Map.of(), Map.of("roce_subnet", "192.168.100.0/24"), check, false, true,
                Duration.ofSeconds(30), null);
    }

    @Test
    void writesTheBootConfigurationOnceAndThenFindsItInPlace() throws Exception {
        Disk disk = new Disk();
        ModuleResult r = new RocePersistModule().run(ctx(host(disk), false));
        assertTrue(r.changed() && !r.failed(), r.msg());
        assertFalse(disk.files.isEmpty() && disk.links.isEmpty(), "something was written");
        assertTrue(disk.staged.isEmpty(), "every staged file was committed");
        assertEquals(1, disk.replaces, "every file in one command");
        @SuppressWarnings("unchecked")
        List<String> written = (List<String>) r.data().get("files");
        for (String p : written) assertTrue(disk.files.containsKey(p) || disk.links.containsKey(p), p + " on disk");
        String all = String.join("\n", disk.files.values());
        List<String> nics = RoceHost.gather(ctx(host(new Disk()), true)).sel().nics().stream().map(n -> n.ip()).toList();
        for (String ip : nics) assertTrue(all.contains("from " + ip), "the rule of " + ip + " persists:\n" + all);
        assertEquals(r.data().get("commands"), disk.commands, "systemd told about the new unit");

        FakeHost again = host(disk);
        ModuleResult r2 = new RocePersistModule().run(ctx(again, false));
        assertFalse(r2.changed() || r2.failed(), r2.msg());
        assertTrue(again.calls(c -> c.script().contains("rocectl.XXXXXX")).isEmpty(), "nothing staged again");
    }

    @Test
    void filesThatCameWithTheSnapshotAreNotReadAgain() throws Exception {
        Disk disk = new Disk();
        FakeHost h = host(disk, true);
        ModuleResult r = new RocePersistModule().run(ctx(h, false));
        assertTrue(r.changed() && !r.failed(), r.msg());
        assertEquals(List.of(), h.calls(c -> c.script().contains("@@rocectl-file@@") && !c.script().contains("rocectl-section")),
                "no read of its own");
        assertEquals(1, disk.replaces);
        FakeHost again = host(disk, true);
        ModuleResult r2 = new RocePersistModule().run(ctx(again, false));
        assertFalse(r2.changed() || r2.failed(), r2.msg());
        assertEquals(1, again.calls().size(), "a converged host: the snapshot only, " + again.calls());
    }

    @Test
    void aFailedCommitChangesNoFileAndFailsTheTask() throws Exception {
        Disk disk = new Disk();
        disk.commitFails = true;
        try {
            ModuleResult r = new RocePersistModule().run(ctx(host(disk), false));
            throw new AssertionError("a failed commit must fail the task: " + r.msg());
        } catch (io.rocectl.module.ModuleException e) {
            assertTrue(e.getMessage().contains("every file is back as it was"), e.getMessage());
        }
        assertTrue(disk.files.isEmpty() && disk.links.isEmpty(), "no file changed");
    }

    @Test
    void checkModeStagesNothing() throws Exception {
        Disk disk = new Disk();
        FakeHost h = host(disk);
        ModuleResult r = new RocePersistModule().run(ctx(h, true));
        assertTrue(r.changed() && r.msg().startsWith("would persist"), r.msg());
        assertTrue(h.calls(c -> c.script().contains("rocectl.XXXXXX") || c.script().contains("every file is back")).isEmpty());
        assertTrue(disk.files.isEmpty());
    }
}
