package io.rocectl.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Tears a lab down, idempotently: its recorded processes (and their descendants, e.g. SSH
 * sessions) are killed by PID; every veth is deleted explicitly from the namespace that holds its
 * end, so a namespace kept alive by a stray process cannot keep a cable or a root-namespace port
 * behind; then namespaces, bridge, /etc/netns entries and the state directory go.
 * Neighbour-table limits are left raised: another lab may rely on them and larger limits are harmless.
 */
final class LabDown {
    private LabDown() {}

    static void down(LabState s, PrintStream out) {
        int killed = 0;
        for (LabHost h : s.hosts()) {
            for (long pid : new long[] {h.sshdPid(), h.holderPid()}) {
                if (HostProcesses.alive(pid)) {
                    HostProcesses.kill(pid);
                    killed++;
                }
            }
        }
        List<String> sw = new ArrayList<>();
        List<String> root = new ArrayList<>();
        for (LabHost h : s.hosts()) {
            for (LabNic n : h.nics()) sw.add("link del " + n.switchPort());
            root.add("link del " + h.mgmtPeer());
        }
        sw.add("link del " + s.switchBridge());
        if (nsExists(s.switchNamespace())) forceBatch(s.switchNamespace(), sw);
        root.add("link del " + s.mgmtBridge());
        for (LabHost h : s.hosts()) root.add("netns del " + h.namespace());
        root.add("netns del " + s.switchNamespace());
        forceBatch(null, root);
        for (LabHost h : s.hosts()) deleteTree(LabState.netnsEtc(h.namespace()));
        deleteTree(LabState.netnsEtc(s.switchNamespace()));
        deleteTree(s.path());
        out.println("lab " + s.name() + " down: " + killed + " processes stopped, " + s.hosts().size()
                + " hosts and the switch removed");
    }

    /** No state file: remove by name what a lab of that name creates (no processes are touched). */
    static void downByName(String name, Path dir, PrintStream out) {
        List<String> root = new ArrayList<>();
        String prefix = name + "-";
        for (String line : Shell.run("ip", "-o", "link", "show").stdout().split("\n")) {
            String[] t = line.split(":\\s+");
            if (t.length < 2) continue;
            String dev = t[1].split("@")[0];
            if (dev.startsWith(prefix) && dev.substring(prefix.length()).matches("br|\\d{2,3}")) root.add("link del " + dev);
        }
        List<String> ns = new ArrayList<>();
        for (String line : Shell.run("ip", "netns", "list").stdout().split("\n")) {
            String n = line.trim().split("\\s+")[0];
            if (n.startsWith(prefix) && n.substring(prefix.length()).matches("sw|gpu\\d{2,3}")) ns.add(n);
        }
        for (String n : ns) root.add("netns del " + n);
        forceBatch(null, root);
        for (String n : ns) deleteTree(LabState.netnsEtc(n));
        deleteTree(dir);
        out.println(root.isEmpty() ? "lab " + name + " is not up (nothing to remove)"
                : "lab " + name + ": no state file; removed " + ns.size() + " namespaces and leftover links by name");
    }

    static boolean nsExists(String ns) {
        return Files.exists(Path.of("/run/netns", ns));
    }

    private static void forceBatch(String ns, List<String> lines) {
        if (lines.isEmpty()) return;
        List<String> argv = new ArrayList<>(List.of("ip"));
        if (ns != null) argv.addAll(List.of("-n", ns));
        argv.addAll(List.of("-force", "-batch", "-"));
        Shell.run(io.rocectl.transport.Cmd.of(argv).withStdin(String.join("\n", lines) + "\n"));
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> w = Files.walk(p)) {
            for (Path x : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(x);
        } catch (IOException e) {
            throw new LabException("cannot remove " + p + ": " + e.getMessage());
        }
    }
}
