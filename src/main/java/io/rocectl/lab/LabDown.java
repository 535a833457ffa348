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
 * sessions) are killed by PID (after checking the PID still lives in the host's namespace); the
 * namespaces are deleted; root-namespace veth peers still present afterwards (a namespace kept
 * alive by a stray process keeps its veths) are deleted explicitly; then the management bridge,
 * /etc/netns entries and the state directory go.
 * Neighbour-table limits are left raised: another lab may rely on them and larger limits are harmless.
 */
final class LabDown {
    private LabDown() {}

    static void down(LabState s, PrintStream out) {
        List<Long> pids = new ArrayList<>();
        for (LabHost h : s.hosts()) {
            for (long pid : new long[] {h.sshdPid(), h.holderPid()}) {
                if (HostProcesses.ours(pid, h.namespace(), s.path())) pids.add(pid);
            }
        }
        HostProcesses.killAll(pids);
        int killed = pids.size();
        List<String> nsDel = new ArrayList<>();
        for (LabHost h : s.hosts()) if (nsExists(h.namespace())) nsDel.add("netns del " + h.namespace());
        if (nsExists(s.switchNamespace())) nsDel.add("netns del " + s.switchNamespace());
        forceBatch(null, nsDel);
        // The kernel destroys namespaces asynchronously, all devices at once (fast); a namespace kept
        // alive by a stray process keeps its veths, so whatever root-namespace peer is still there
        // after a short wait is deleted explicitly (deleting one end removes the pair).
        List<String> peers = new ArrayList<>();
        for (LabHost h : s.hosts()) peers.add(h.mgmtPeer());
        long end = System.currentTimeMillis() + 3000;
        List<String> left = existing(peers);
        while (!left.isEmpty() && System.currentTimeMillis() < end) {
            sleep(50);
            left = existing(peers);
        }
        List<String> root = new ArrayList<>();
        for (String p : left) root.add("link del " + p);
        root.add("link del " + s.mgmtBridge());
        forceBatch(null, root);
        List<Path> trees = new ArrayList<>();
        for (LabHost h : s.hosts()) {
            trees.add(LabState.netnsEtc(h.namespace()));
            trees.add(s.hostDir(h.name()));
        }
        trees.add(LabState.netnsEtc(s.switchNamespace()));
        Parallel.forEach(trees, 8, LabDown::deleteTree);
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

    /** Those of the names that are links in the root namespace now. */
    private static List<String> existing(List<String> names) {
        java.util.Set<String> links = new java.util.HashSet<>();
        for (String line : Shell.run("ip", "-o", "link", "show").stdout().split("\n")) {
            String[] t = line.split(":\\s+");
            if (t.length > 1) links.add(t[1].split("@")[0]);
        }
        return names.stream().filter(links::contains).toList();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
