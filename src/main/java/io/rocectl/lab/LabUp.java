package io.rocectl.lab;

import io.rocectl.fs.OwnFiles;
import io.rocectl.transport.Cmd;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Brings a lab up: checks first, then namespaces and links in batches, then processes in parallel. */
final class LabUp {
    /** Entries of /etc/netns/NS, each bind-mounted over /etc/ENTRY inside the host. */
    static final List<String> ETC_DIRS = List.of("sysctl.d", "iproute2", "systemd", "netplan", "NetworkManager",
            "network", "rocectl", "modprobe.d");
    static final int THREADS = 8;

    private LabUp() {}

    static LabState up(LabSpec spec, PrintStream out) {
        spec.validate();
        Preflight.requireRoot("up");
        Preflight.ensureTools(out);
        if (spec.slurm()) SlurmLab.ensureInstalled(out);
        Preflight.checkMachine(spec);
        long t0 = System.nanoTime();
        LabState s = LabLayout.plan(spec);
        try {
            OwnFiles.createDirs(s.path()); // 0700 (it holds the client key), whatever the umask
        } catch (IOException e) {
            throw new LabException("cannot create " + s.path() + ": " + e.getMessage());
        }
        s.save();
        try {
            s = build(s, spec.slurm(), out);
        } catch (RuntimeException e) {
            out.println("lab up failed: " + e.getMessage() + "; removing what was created");
            LabDown.down(LabState.load(s.path()), out);
            throw e;
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        out.printf("lab %s up: %d hosts x %d NICs in %.1f s%n", s.name(), s.hosts().size(),
                s.hosts().get(0).nics().size(), ms / 1000.0);
        out.println("  inventory:   " + s.inventory());
        out.println("  client key:  " + s.clientKey());
        out.println("  known_hosts: " + s.knownHosts());
        out.println("  rdma: emulated mlx5_0..mlx5_" + (s.hosts().get(0).nics().size() - 1)
                + " per host (/sys/class/infiniband, /proc/interrupts; lab break counters moves their counters)");
        out.println("  fabric " + s.fabric() + " (one subnet, switch namespace " + s.switchNamespace()
                + "), management " + s.mgmt() + " on bridge " + s.mgmtBridge());
        String where = LabSpec.DEFAULT_NAME.equals(s.name()) && s.path().equals(Lab.defaultDir(s.name())) ? ""
                : s.path().equals(Lab.defaultDir(s.name())) ? " --name " + s.name() : " --dir " + s.path();
        SlurmLab.describe(s, out);
        out.println("next: rocectl run playbooks/roce-multinic.yaml -i " + s.inventory());
        out.println("      rocectl lab exec" + where + " " + s.hosts().get(0).name() + " -- ip route");
        return s;
    }

    private static LabState build(LabState s, boolean slurm, PrintStream out) {
        Phases ph = new Phases();
        HostsTmpfs.mountIfNeeded(s.path().resolve("hosts"));
        keysAndFiles(s);
        ph.mark("keys+files");
        s = s.withGcThresh(raiseNeighbourLimits(s, out));
        Shell.ipBatch(null, LabBatches.root(s));
        ph.mark("links");
        final LabState st = s;
        Shell.check(Cmd.of(Shell.concat(Shell.inNetns(s.switchNamespace()), List.of("sysctl", "-q", "-w",
                "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"))));
        Shell.ipBatch(s.switchNamespace(), LabBatches.switchPorts(s));
        Parallel.forEach(s.hosts(), THREADS, h -> {
            List<String> sysctl = new ArrayList<>(List.of("sysctl", "-q", "-w"));
            sysctl.addAll(LabBatches.arpDefaults(h));
            Shell.check(Cmd.of(Shell.concat(Shell.inNetns(h.namespace()), sysctl)));
            Shell.ipBatch(h.namespace(), LabBatches.host(st, h));
            Shell.check(Cmd.of(Shell.concat(Shell.inNetns(h.namespace()), List.of("nft", "-f", "-")))
                    .withStdin(NftRules.strict(h.nics())));
        });
        ph.mark("addresses+nft");
        for (LabHost h : s.hosts()) HostProcesses.startHolder(s, h);
        List<LabHost> started = new ArrayList<>();
        for (LabHost h : s.hosts()) {
            Path d = s.hostDir(h.name());
            long pid = HostProcesses.awaitPid(d.resolve("holder.pid"), d.resolve("holder.log"), 20_000);
            started.add(h.withPids(pid, 0));
        }
        for (LabHost h : started) s = s.withHost(h);
        s.save();
        ph.mark("holders");
        HostProcesses.ensureSshdRuntime();
        HostProcesses.checkSshdConfig(s.hostDir(s.hosts().get(0).name()).resolve("sshd_config"));
        Map<String, Process> sshds = new LinkedHashMap<>();
        for (LabHost h : s.hosts()) sshds.put(h.name(), HostProcesses.startSshd(s, h));
        for (LabHost h : s.hosts()) {
            Path d = s.hostDir(h.name());
            long pid = HostProcesses.awaitPid(d.resolve("sshd.pid"), d.resolve("sshd.log"), 20_000,
                    sshds.get(h.name()), d.resolve("sshd.out"));
            s = s.withHost(h.withPids(h.holderPid(), pid));
        }
        s.save();
        final LabState st2 = s;
        Parallel.forEach(s.hosts(), 16, h -> HostProcesses.awaitListening(h.mgmtIp(), 20_000));
        ph.mark("sshd");
        Map<String, String> keys = new LinkedHashMap<>();
        for (LabHost h : st2.hosts()) keys.put(h.mgmtIp(), read(st2.hostDir(h.name()).resolve("ssh_host_ed25519_key.pub")));
        write(s.knownHosts(), LabFiles.knownHosts(keys));
        if (slurm) {
            s = SlurmLab.up(s, out);
            ph.mark("slurm");
        }
        write(s.inventory(), LabFiles.inventory(s));
        s = s.withComplete(true);
        s.save();
        out.println("  phases: " + ph);
        return s;
    }

    private static void keysAndFiles(LabState s) {
        List<Path> keyFiles = new ArrayList<>(List.of(s.clientKey()));
        for (LabHost h : s.hosts()) keyFiles.add(s.hostDir(h.name()).resolve("ssh_host_ed25519_key"));
        for (LabHost h : s.hosts()) {
            Path d = s.hostDir(h.name());
            mkdirs(d.resolve("root/.ssh"));
            mkdirs(d.resolve("etc.upper"));
            mkdirs(d.resolve("etc.work"));
            mkdirs(d.resolve("etc.netns"));
        }
        RdmaEmulation.Machine machine = RdmaEmulation.Machine.read();
        Parallel.forEach(s.hosts(), THREADS, h -> {
            if (!RdmaEmulation.write(s, h, machine)) {
                throw new LabException("the lab directory " + s.path() + " has a ',', ':' or blank in its path: the RDMA"
                        + " emulation cannot be mounted from it (choose another --dir)");
            }
        });
        Parallel.forEach(keyFiles, THREADS, f -> Shell.check("ssh-keygen", "-q", "-t", "ed25519", "-N", "",
                "-C", "rocectl-lab-" + s.name(), "-f", f.toString()));
        String clientPub = read(Path.of(s.clientKey() + ".pub"));
        for (LabHost h : s.hosts()) {
            Path d = s.hostDir(h.name());
            write(d.resolve("root/.ssh/authorized_keys"), clientPub);
            write(d.resolve("sshd_config"), SshdConfig.render(h.mgmtIp(), d));
            Path etc = LabState.netnsEtc(h.namespace());
            for (String e : ETC_DIRS) mkdirs(etc.resolve(e));
            // as on a systemd host, where enabling any service has made it
            mkdirs(etc.resolve("systemd/system/multi-user.target.wants"));
            mkdirs(etc.resolve("systemd/network"));
            write(etc.resolve("hostname"), h.name() + "\n");
            copyTree(Path.of("/etc/iproute2"), etc.resolve("iproute2"));
            mkdirs(etc.resolve("iproute2/rt_tables.d"));
            if ("networkd".equals(s.netcfg())) {
                for (LabNic n : h.nics()) {
                    write(etc.resolve("systemd/network/10-" + n.name() + ".network"), NetworkdEmulation.networkFile(n));
                }
            }
        }
    }

    /** Neighbour limits live only in the root namespace and are shared by all namespaces. */
    private static Map<String, Long> raiseNeighbourLimits(LabState s, PrintStream out) {
        Path base = Path.of("/proc/sys/net/ipv4/neigh/default");
        long[] cur = new long[3];
        for (int i = 0; i < 3; i++) cur[i] = Long.parseLong(readProc(base.resolve("gc_thresh" + (i + 1))));
        int k = s.hosts().get(0).nics().size();
        long need = LabBatches.neighbourEntries(s.hosts().size(), k);
        long[] next = LabBatches.gcThresh(cur, need);
        Map<String, Long> g = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            g.put("before.gc_thresh" + (i + 1), cur[i]);
            g.put("after.gc_thresh" + (i + 1), next[i]);
        }
        if (next[0] == cur[0] && next[1] == cur[1] && next[2] == cur[2]) {
            out.printf("neighbour table: gc_thresh1/2/3 = %d/%d/%d already hold %d entries (N*K*N*K + management)%n",
                    cur[0], cur[1], cur[2], need);
        } else {
            for (int i = 2; i >= 0; i--) write(base.resolve("gc_thresh" + (i + 1)), Long.toString(next[i]));
            for (int i = 0; i < 3; i++) {
                long now = Long.parseLong(readProc(base.resolve("gc_thresh" + (i + 1))));
                if (now < next[i]) throw new LabException("neighbour table: gc_thresh" + (i + 1) + " is " + now
                        + " after writing " + next[i] + ": the kernel does not take the limit the shape needs ("
                        + need + " entries); use fewer hosts or NICs");
            }
            out.printf("neighbour table (shared by all namespaces): gc_thresh1/2/3 raised from %d/%d/%d to %d/%d/%d"
                    + " for %d entries (N*K*N*K + management); left raised by down%n",
                    cur[0], cur[1], cur[2], next[0], next[1], next[2], need);
        }
        return g;
    }

    /** Wall time of named bring-up phases, for the summary line. */
    private static final class Phases {
        private long last = System.nanoTime();
        private final StringBuilder sb = new StringBuilder();

        void mark(String name) {
            long now = System.nanoTime();
            if (sb.length() > 0) sb.append(", ");
            sb.append(name).append(String.format(" %.1f s", (now - last) / 1e9));
            last = now;
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }

    static void mkdirs(Path p) {
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** /proc files report size 0 and may return short reads: read the first line with a reader. */
    static String readProc(Path p) {
        try (java.io.BufferedReader r = Files.newBufferedReader(p)) {
            String line = r.readLine();
            if (line == null) throw new LabException("empty " + p);
            return line.trim();
        } catch (IOException e) {
            throw new LabException("cannot read " + p + ": " + e.getMessage());
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new LabException("cannot read " + p + ": " + e.getMessage());
        }
    }

    static void write(Path p, String text) {
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, text);
            if (p.getFileName().toString().equals("authorized_keys")) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
            }
        } catch (IOException e) {
            throw new LabException("cannot write " + p + ": " + e.getMessage());
        }
    }

    private static void copyTree(Path from, Path to) {
        if (!Files.isDirectory(from)) return;
        try (Stream<Path> w = Files.walk(from)) {
            for (Path p : (Iterable<Path>) w::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new LabException("cannot copy " + from + ": " + e.getMessage());
        }
    }
}
