package io.rocectl.lab;

import io.rocectl.error.InputError;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Tears a lab down, idempotently: its recorded processes (and their descendants, e.g. SSH
 * sessions) are killed by PID (after checking the PID still lives in the host's namespace); the
 * namespaces are deleted; root-namespace veth peers still present afterwards (a namespace kept
 * alive by a stray process keeps its veths) are deleted explicitly; then the management bridge,
 * the /etc/netns entries (when they hold only what lab up put there), the files lab up wrote into
 * the state directory and, when nothing else is left in it, the state directory go. Nothing is
 * deleted through a symlink, and nothing the state file does not name.
 * Neighbour-table limits are left raised: another lab may rely on them and larger limits are harmless.
 */
final class LabDown {
    private LabDown() {}

    static void down(LabState s, PrintStream out) {
        List<Long> slurm = SlurmLab.pids(s);
        HostProcesses.killAll(slurm);
        List<Long> pids = new ArrayList<>();
        for (LabHost h : s.hosts()) {
            for (long pid : new long[] {h.sshdPid(), h.holderPid()}) {
                if (HostProcesses.ours(pid, h.namespace(), s.path())) pids.add(pid);
            }
        }
        HostProcesses.killAll(pids);
        int killed = pids.size() + slurm.size();
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
        for (LabHost h : s.hosts()) deleteEtcNetns(h.namespace(), out);
        deleteEtcNetns(s.switchNamespace(), out);
        Path hosts = s.path().resolve("hosts");
        if (Files.isDirectory(hosts, LinkOption.NOFOLLOW_LINKS)) {
            List<Path> trees = new ArrayList<>();
            for (LabHost h : s.hosts()) trees.add(s.hostDir(h.name()));
            Parallel.forEach(trees, 8, LabDown::deleteTree);
            // a file the lab did not make keeps the tmpfs, and the directory (named below)
            if (emptyDir(hosts)) HostsTmpfs.unmount(hosts);
            deleteIfEmpty(hosts);
        }
        if (s.slurm() != null) SlurmLab.removeFiles(s);
        for (String f : STATE_FILES) deleteFile(s.path().resolve(f));
        deleteFile(s.path().resolve(LabState.FILE));
        if (!deleteIfEmpty(s.path())) {
            out.println("kept " + s.path() + ": it holds files the lab did not create" + listing(s.path()));
        }
        out.println("lab " + s.name() + " down: " + killed + " processes stopped, " + s.hosts().size()
                + " hosts and the switch removed");
    }

    /** Files lab up writes into the state directory (besides the state file and {@code hosts/}). */
    static final List<String> STATE_FILES = List.of(LabState.FILE + ".tmp", "inventory.ini", "id_ed25519",
            "id_ed25519.pub", "known_hosts", SlurmLab.CONF);

    /** A name recorded in a state file that becomes a path or device name: plain, or the state file is refused. */
    private static final Pattern PLAIN = Pattern.compile("[a-z0-9-]{1,64}");

    /**
     * The {@code --dir} to act on, normalised: refused (InputError) when it has a {@code ..} element,
     * is a symlink, or is something other than a directory.
     */
    static Path checkedDir(Path dir) {
        for (Path e : dir) {
            if (e.toString().equals("..")) {
                throw new InputError("option --dir", 0, 0, "'" + dir + "' contains '..'; give the lab's state directory itself");
            }
        }
        Path d = dir.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(d)) {
            throw new InputError("option --dir", 0, 0, d + " is a symlink; refusing to follow it (give the real state directory)");
        }
        if (Files.exists(d, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
            throw new InputError("option --dir", 0, 0, d + " is not a directory; refusing to touch it");
        }
        return d;
    }

    /**
     * The state, when it describes the directory it was read from and every name in it that becomes a
     * path or a device is plain; InputError (nothing removed) otherwise.
     */
    static LabState verified(LabState s, Path dir) {
        String file = dir.resolve(LabState.FILE).toString();
        if (s.dir() == null || !Path.of(s.dir()).toAbsolutePath().normalize().equals(dir)) {
            throw new InputError(file, 0, 0, "lab state records directory '" + s.dir() + "', not " + dir
                    + "; refusing to remove anything");
        }
        List<String> names = new ArrayList<>(List.of(String.valueOf(s.name()), String.valueOf(s.switchNamespace()),
                String.valueOf(s.mgmtBridge())));
        for (LabHost h : s.hosts()) {
            names.add(String.valueOf(h.name()));
            names.add(String.valueOf(h.namespace()));
            names.add(String.valueOf(h.mgmtPeer()));
        }
        for (String n : names) {
            if (!PLAIN.matcher(n).matches()) {
                throw new InputError(file, 0, 0, "lab state has a name that is not plain [a-z0-9-]: '" + n
                        + "'; refusing to remove anything");
            }
        }
        return s;
    }

    /**
     * Deletes {@code /etc/netns/NS} when it is a real directory holding only what lab up puts there;
     * otherwise leaves it and says so.
     */
    private static void deleteEtcNetns(String namespace, PrintStream out) {
        Path etc = LabState.netnsEtc(namespace);
        if (!Files.exists(etc, LinkOption.NOFOLLOW_LINKS)) return;
        if (!Files.isDirectory(etc, LinkOption.NOFOLLOW_LINKS)) {
            out.println("kept " + etc + ": not a directory the lab created");
            return;
        }
        List<String> foreign = new ArrayList<>();
        try (Stream<Path> l = Files.list(etc)) {
            for (Path p : l.toList()) {
                String n = p.getFileName().toString();
                if (!LabUp.ETC_DIRS.contains(n) && !n.equals("hostname")) foreign.add(n);
            }
        } catch (IOException e) {
            throw new LabException("cannot list " + etc + ": " + e.getMessage());
        }
        if (!foreign.isEmpty()) {
            out.println("kept " + etc + ": it holds entries the lab did not create (" + String.join(", ", foreign) + ")");
            return;
        }
        deleteTree(etc);
    }

    private static void deleteFile(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new LabException("cannot remove " + p + ": " + e.getMessage());
        }
    }

    /** Deletes a directory when it is empty (or already gone): true; false when it holds something. */
    private static boolean deleteIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (DirectoryNotEmptyException e) {
            return false;
        } catch (IOException e) {
            throw new LabException("cannot remove " + dir + ": " + e.getMessage());
        }
    }

    private static String listing(Path dir) {
        try (Stream<Path> l = Files.list(dir)) {
            List<String> n = l.map(p -> p.getFileName().toString()).sorted().limit(5).toList();
            return " (" + String.join(", ", n) + (n.size() == 5 ? ", ..." : "") + ")";
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean emptyDir(Path dir) {
        try (Stream<Path> l = Files.list(dir)) {
            return l.findAny().isEmpty();
        } catch (IOException e) {
            throw new LabException("cannot list " + dir + ": " + e.getMessage());
        }
    }

    /**
     * No state file: remove by name the links and namespaces a lab of that name creates (no processes
     * are touched). The directory must not exist or be empty (it is then left as it is): a directory
     * holding anything but no state file is not known to be a lab's and is refused, untouched.
     */
    static void downByName(String name, Path dir, PrintStream out) {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) && !emptyDir(dir)) {
            throw new InputError("option --dir", 0, 0, dir + " holds no lab state file (" + LabState.FILE
                    + "): not a lab's state directory; refusing to remove it (nothing removed)");
        }
        Preflight.requireRoot("down");
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
        for (String n : ns) deleteEtcNetns(n, out);
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
