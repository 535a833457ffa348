package io.rocectl.builtin.roce;

import io.rocectl.fact.NetSnapshot;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.nic.HostNics;
import io.rocectl.op.RoceFixtures;
import io.rocectl.testing.FakeHost;
import io.rocectl.testing.FakeHost.Call;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code roce_arp}'s apply path without root: a fake 8-NIC host keeps its ARP sysctls and the
 * sysctl file in memory, answers the gather from them and takes the module's writes (the live
 * values read from the script's stdin as {@code PATH VALUE} lines, the file written atomically).
 * The first run sets and flushes, the second finds everything right; a file right but live values
 * wrong is still a change. The real kernel is {@code RoceArpNetnsTest}'s (root).
 */
class RoceArpApplyTest {
    static final String MARK = "@@rocectl-section@@ ";

    /** The fake host's state: sysctls (path under /proc/sys -> value) and the sysctl file. */
    static final class State {
        final Map<String, String> sysctl = new TreeMap<>();
        String file;
    }

    static FakeHost host(State st) {
        return host(st, "root");
    }

    /**
     * The file written (by the combined command's $1/$2, or by an atomic-write command), or null.
     * A root login sends the file, the live values, the flush and the re-read as ONE command
     * (the read after {@link HostNics#THEN}); another login sends them one by one.
     */
    static boolean wroteFile(Call c) {
        return c.script().contains(HostNics.THEN) ? !c.scriptArgs().get(0).isEmpty() : atomicWrite(c);
    }

    /** RemoteFile.writeAtomic's command. */
    static boolean atomicWrite(Call c) {
        return c.script().contains("else cat > \"$t\"") && !c.script().contains("for l in $live");
    }

    /** The NICs a call flushed (the change's $4...). */
    static List<String> flushed(Call c) {
        return c.scriptArgs().subList(3, c.scriptArgs().size());
    }

    static FakeHost host(State st, String user) {
        String base = RoceFixtures.gatherOutput("8nic", null, null, null, RoceFixtures.ssh("8nic"));
        if (st.sysctl.isEmpty()) {
            for (var i : NetSnapshot.parse(base).ifaces()) {
                for (String k : List.of("arp_ignore", "arp_announce", "arp_accept")) {
                    st.sysctl.put("net/ipv4/conf/" + i.name() + "/" + k, "0");
                }
                st.sysctl.put("net/ipv4/conf/" + i.name() + "/rp_filter", "2");
            }
            for (String d : List.of("all", "default")) {
                for (String k : List.of("arp_ignore", "arp_announce", "arp_accept")) st.sysctl.put("net/ipv4/conf/" + d + "/" + k, "0");
                st.sysctl.put("net/ipv4/conf/" + d + "/rp_filter", "2");
            }
            st.sysctl.put("net/ipv4/neigh/default/gc_thresh1", "128");
            st.sysctl.put("net/ipv4/neigh/default/gc_thresh2", "512");
            st.sysctl.put("net/ipv4/neigh/default/gc_thresh3", "1024");
        }
        FakeHost h = new FakeHost("gpu01", user);
        java.util.function.Supplier<String> gather = () -> {
            StringBuilder sb = new StringBuilder(base).append(MARK).append("sysctl_net\n");
            st.sysctl.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            for (String section : List.of("file1", "roce_sysctl_file")) {   // the file by argument, or the usual one
                sb.append(MARK).append(section).append('\n');
                if (st.file != null) sb.append("present\n").append(st.file);
            }
            return sb.toString();
        };
        h.on(c -> c.script().contains(HostNics.THEN), c -> {
            assertTrue(user.equals("root"), "one command only for a root login");
            if (!c.scriptArgs().get(0).isEmpty()) {
                assertEquals(RoceArpModule.DEFAULT_FILE, c.scriptArgs().get(0));
                st.file = c.scriptArgs().get(1);
            }
            setLive(st, c.scriptArgs().get(2));
            return FakeHost.ok("\n" + HostNics.THEN + "0\n" + gather.get());
        });
        h.on(c -> c.script().contains("rocectl-section") || String.join(" ", c.argv()).contains("rocectl-section"),
                c -> FakeHost.ok(gather.get()));
        h.on(RoceArpApplyTest::atomicWrite, c -> {
            assertEquals(RoceArpModule.DEFAULT_FILE, c.scriptArgs().get(0));
            st.file = c.scriptArgs().size() > 2 ? c.scriptArgs().get(2) : c.stdin();
            return FakeHost.ok("");
        });
        h.on(c -> c.script().contains("for l in $live"), c -> {
            setLive(st, c.scriptArgs().get(2));
            return FakeHost.ok("");
        });
        return h;
    }

    static void setLive(State st, String live) {
        for (String line : live.strip().split("\n")) {
            if (line.isEmpty()) continue;
            String[] kv = line.split(" ", 2);
            assertTrue(st.sysctl.containsKey(kv[0]), "writes only what exists: " + kv[0]);
            st.sysctl.put(kv[0], kv[1]);
        }
    }

    static TaskContext ctx(FakeHost h, boolean check) {
        return new TaskContext("gpu01", h, Map.of("peer_nics", 32), Map.of("roce_subnet", "192.168.100.0/24"), check,
                false, true, Duration.ofSeconds(30), null);
    }

    static List<String> roceNics(FakeHost h) throws Exception {
        return RoceHost.gather(ctx(h, true)).sel().nics().stream().map(n -> n.name()).toList();
    }

    @Test
    void setsLiveValuesAndTheFileFlushesOnceThenChangesNothing() throws Exception {
        for (String user : List.of("root", "admin")) {
            State st = new State();
            FakeHost h = host(st, user);
            List<String> nics = roceNics(h);
            assertFalse(nics.isEmpty());
            int before = h.calls().size();
            ModuleResult r = new RoceArpModule().run(ctx(h, false));
            assertTrue(r.changed() && !r.failed(), r.msg());
            for (String n : nics) {
                assertEquals("1", st.sysctl.get("net/ipv4/conf/" + n + "/arp_ignore"), n);
                assertEquals("2", st.sysctl.get("net/ipv4/conf/" + n + "/arp_announce"), n);
            }
            assertTrue(st.file != null && st.file.contains("arp_ignore"), String.valueOf(st.file));
            assertTrue(Integer.parseInt(st.sysctl.get("net/ipv4/neigh/default/gc_thresh3")) >= nics.size() * 32,
                    "the neighbour table fits every peer NIC");
            Call live = h.calls(c -> c.script().contains("for l in $live")).get(0);
            assertEquals(nics, flushed(live), "the RoCE NICs' neighbours are flushed");
            if (user.equals("root")) {
                assertEquals(before + 2, h.calls().size(), "the gather, then file, live values, flush and re-read in one command");
            }

            FakeHost again = host(st, user);
            ModuleResult r2 = new RoceArpModule().run(ctx(again, false));
            assertFalse(r2.changed() || r2.failed(), r2.msg());
            assertTrue(again.calls(c -> c.script().contains("for l in $live") || wroteFile(c)).isEmpty());
        }
    }

    @Test
    void aRightFileWithWrongLiveValuesIsAChangeWithoutAFileWrite() throws Exception {
        for (String user : List.of("root", "admin")) {
            State st = new State();
            new RoceArpModule().run(ctx(host(st, user), false));
            String n = roceNics(host(st, user)).get(0);
            st.sysctl.put("net/ipv4/conf/" + n + "/arp_ignore", "0");
            FakeHost h = host(st, user);
            ModuleResult r = new RoceArpModule().run(ctx(h, false));
            assertTrue(r.changed() && !r.failed(), r.msg());
            assertEquals("1", st.sysctl.get("net/ipv4/conf/" + n + "/arp_ignore"));
            assertTrue(h.calls(RoceArpApplyTest::wroteFile).isEmpty(), "the file was right");
        }
    }

    @Test
    void anEmptySelectionWithRemovalConfirmedRemovesTheFileAndLeavesTheLiveValues() throws Exception {
        State st = new State();
        FakeHost h = host(st);
        new RoceArpModule().run(ctx(h, false));
        assertTrue(st.file != null && "1".equals(st.sysctl.get("net/ipv4/conf/all/arp_ignore")), "configured first");
        Map<String, String> live = new TreeMap<>(st.sysctl);
        h.on(c -> c.script().contains("mktemp") && c.scriptArgs().size() == 4 && c.scriptArgs().get(0).equals("del"), c -> {
            assertEquals(List.of("del", RoceArpModule.DEFAULT_FILE, "-", "-"), c.scriptArgs());
            st.file = null;
            return FakeHost.ok("");
        });
        Map<String, Object> vars = Map.of("roce_subnet", "192.168.100.0/24", "roce_nics", List.of(),
                HostNics.CONFIRM_REMOVE, true);
        for (boolean check : List.of(true, false)) {
            ModuleResult r = new RoceArpModule().run(new TaskContext("gpu01", h, Map.of(), vars, check, false, true,
                    Duration.ofSeconds(30), null));
            assertTrue(r.changed() && !r.failed(), r.msg());
            assertEquals(check, st.file != null, "check mode removes nothing; the run removes the file: " + r.msg());
        }
        assertEquals(live, st.sysctl, "the live values stay");
        ModuleResult again = new RoceArpModule().run(new TaskContext("gpu01", h, Map.of(), vars, false, false, true,
                Duration.ofSeconds(30), null));
        assertFalse(again.changed() || again.failed(), again.msg());
    }

    @Test
    void checkModeWritesNothing() throws Exception {
        State st = new State();
        FakeHost h = host(st);
        ModuleResult r = new RoceArpModule().run(ctx(h, true));
        assertTrue(r.changed() && r.msg().startsWith("would set"), r.msg());
        assertTrue(h.calls(c -> c.script().contains("for l in $live") || wroteFile(c)).isEmpty());
        assertEquals(null, st.file);
    }
}
