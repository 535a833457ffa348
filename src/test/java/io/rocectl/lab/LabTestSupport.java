package io.rocectl.lab;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.Await;
import io.rocectl.transport.ExecResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Helpers for lab integration tests: bring-up with a free management subnet, SSH, pair probes, a manual fix. */
final class LabTestSupport {
    private LabTestSupport() {}

    /** Skips (with the reason printed) unless root with every tool present. */
    static void assumeLabPossible() {
        boolean root = Preflight.isRoot();
        List<String> missing = Preflight.missingPackages(Preflight::onPath);
        String reason = !root ? "lab tests need root" : "lab tests need packages " + missing;
        if (!root || !missing.isEmpty()) System.out.println("SKIPPED lab tests: " + reason);
        assumeTrue(root && missing.isEmpty(), reason);
    }

    /**
     * A suite's tag, from the environment variable {@code ROCECTL_LAB_TAG} (1-3 of [a-z0-9]; none by
     * default): when set, every lab name of this suite ends in it, so two suites running at once
     * (bench/stress-suite.sh gives each run its own tag) never share a lab, its namespaces or its
     * state directory. Without it a test's lab keeps its plain name, and a run cleans up what a
     * crashed run of the same test left.
     */
    static final String TAG = tag(System.getenv("ROCECTL_LAB_TAG"));

    static String tag(String value) {
        if (value == null || value.isEmpty()) return "";
        if (!value.matches("[a-z0-9]{1,3}")) {
            throw new IllegalArgumentException("ROCECTL_LAB_TAG='" + value + "': 1-3 characters of [a-z0-9]");
        }
        return value;
    }

    /** A test's lab name with this suite's {@link #TAG}: the base cut so the whole fits in 10 characters. */
    static String named(String base) {
        return named(base, TAG);
    }

    static String named(String base, String tag) {
        if (tag.isEmpty()) return base;
        return base.substring(0, Math.min(base.length(), 10 - tag.length())) + tag;
    }

    /** Brings a lab up in a temp-ish directory with a random /24 management subnet (other labs may be up). */
    static LabState up(String base, int hosts, int nics, String netcfg) {
        String name = named(base);
        int third = ThreadLocalRandom.current().nextInt(1, 250);
        LabSpec spec = new LabSpec(name, hosts, nics, Cidr.parse("172.31.0.0/16"), Cidr.parse("10.248." + third + ".0/24"),
                netcfg, Path.of("/run/rocectl-lab-test", name));
        Lab.down(name, spec.dir(), quiet());
        return Lab.up(spec, System.out);
    }

    /** As {@link #up} with a real Slurm ({@code lab up --slurm}). */
    static LabState upSlurm(String base, int hosts, int nics) {
        String name = named(base);
        int third = ThreadLocalRandom.current().nextInt(1, 250);
        LabSpec spec = new LabSpec(name, hosts, nics, Cidr.parse("172.31.0.0/16"), Cidr.parse("10.248." + third + ".0/24"),
                "none", Path.of("/run/rocectl-lab-test", name), true);
        Lab.down(name, spec.dir(), quiet());
        return Lab.up(spec, System.out);
    }

    /**
     * Takes a test's lab down from its latest state file, asserts nothing of it is left, then runs
     * the by-name clean-up too (idempotent).
     */
    static void downAndCheck(LabState s) throws Exception {
        if (s == null) return;
        LabState last = LabState.load(s.path());
        Lab.down(last, quiet());
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), leftovers(last));
        Lab.down(last.name(), last.path(), quiet());
    }

    /** The fix playbook on a lab's whole inventory through the real CLI; must exit 0. */
    static void fix(LabState s) {
        io.rocectl.testing.Cli.Result r = io.rocectl.testing.Cli.run("run", "playbooks/roce-multinic.yaml", "-i",
                s.inventory().toString());
        org.junit.jupiter.api.Assertions.assertEquals(0, r.exitCode(), r.out() + r.err());
    }

    /** {@code rocectl lab break ARGS --name NAME --dir DIR} through the real CLI; must exit 0. */
    static void breakFault(LabState s, String... args) {
        List<String> a = new ArrayList<>(List.of("lab", "break"));
        a.addAll(List.of(args));
        a.addAll(List.of("--name", s.name(), "--dir", s.dir()));
        io.rocectl.testing.Cli.Result r = io.rocectl.testing.Cli.run(a.toArray(String[]::new));
        org.junit.jupiter.api.Assertions.assertEquals(0, r.exitCode(), "lab " + a + ": " + r.out() + r.err());
    }

    static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** Captures what a lab operation prints. */
    static final class Out {
        final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        final PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);

        String text() {
            return buf.toString(StandardCharsets.UTF_8);
        }
    }

    /** Real SSH login with the system client, the lab key and known_hosts (strict). */
    static ExecResult ssh(LabState s, LabHost h, String command) throws Exception {
        List<String> argv = List.of("ssh", "-i", s.clientKey().toString(), "-o", "UserKnownHostsFile=" + s.knownHosts(),
                "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5",
                "-o", "GlobalKnownHostsFile=/dev/null", "root@" + h.mgmtIp(), command);
        Process p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        int rc = p.waitFor();
        return new ExecResult(rc, new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8), 0);
    }

    static ExecResult in(LabState s, String host, String... argv) {
        return Lab.run(s, host, List.of(argv));
    }

    /** Every cross-host NIC pair "srcHost/srcNic->dstIp" with whether one ping got through (fping, 300 ms). */
    static Map<String, Boolean> pairs(LabState s) {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (LabHost h : s.hosts()) {
            for (LabNic n : h.nics()) {
                List<String> argv = new ArrayList<>(List.of("fping", "-c", "1", "-t", "300", "-q", "-S", n.ip()));
                for (LabHost o : s.hosts()) if (o != h) o.nics().forEach(x -> argv.add(x.ip()));
                ExecResult r = Lab.run(s, h.name(), argv);
                for (String line : (r.stdout() + r.stderr()).split("\n")) {
                    String[] t = line.trim().split("\\s+");
                    if (t.length < 5 || !line.contains("xmt/rcv")) continue;
                    String[] xr = t[4].split("/");
                    m.put(h.name() + "/" + n.name() + "->" + t[0], Integer.parseInt(xr[1].replace(",", "")) > 0);
                }
            }
        }
        return m;
    }

    /**
     * Probes until every pair works (neighbour entries need a retransmit to recover); fails at the
     * deadline naming the pairs seen last.
     */
    static Map<String, Boolean> awaitAllPairs(LabState s) {
        return Await.until("every NIC pair of the lab works", Await.LONG, () -> pairs(s), p -> failed(p) == 0);
    }

    static long failed(Map<String, Boolean> pairs) {
        return pairs.values().stream().filter(ok -> !ok).count();
    }

    /** The manual fix of problem.md on one host: per-NIC table + rule, ARP sysctls, neighbour flush. */
    static void fix(LabState s, LabHost h) {
        List<String> batch = new ArrayList<>();
        for (LabNic n : h.nics()) {
            int table = 100 + n.rail() + 1;
            batch.add("route replace " + Cidr.parse(s.fabric()) + " dev " + n.name() + " src " + n.ip() + " table " + table);
            batch.add("rule del from " + n.ip() + " table " + table);
        }
        BootSimulation.hostBatchForce(h, batch);
        List<String> rules = new ArrayList<>();
        for (LabNic n : h.nics()) rules.add("rule add from " + n.ip() + " table " + (100 + n.rail() + 1));
        rules.add("neigh flush all");
        BootSimulation.hostBatch(h, rules);
        BootSimulation.hostOut(h, List.of("sysctl", "-q", "-w", "net.ipv4.conf.all.arp_ignore=1", "net.ipv4.conf.all.arp_announce=2"));
    }

    static void fixAll(LabState s) {
        s.hosts().forEach(h -> fix(s, h));
    }

    /** Distinct MAC addresses in arping output. */
    static long macs(String arpingOutput) {
        return java.util.regex.Pattern.compile("([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}").matcher(arpingOutput).results()
                .map(r -> r.group().toLowerCase()).distinct().count();
    }

    /** What a torn-down lab must not leave: namespaces, links, processes, /etc/netns entries, state. */
    static List<String> leftovers(LabState s) throws Exception {
        List<String> left = new ArrayList<>();
        String ns = new String(new ProcessBuilder("ip", "netns", "list").start().getInputStream().readAllBytes());
        for (String line : ns.split("\n")) if (line.startsWith(s.name() + "-")) left.add("namespace " + line);
        String links = new String(new ProcessBuilder("ip", "-o", "link", "show").start().getInputStream().readAllBytes());
        for (String line : links.split("\n")) {
            String[] t = line.split(":\\s+");
            if (t.length > 1 && t[1].startsWith(s.name() + "-")) left.add("link " + t[1]);
        }
        for (LabHost h : s.hosts()) {
            if (HostProcesses.alive(h.sshdPid())) left.add("sshd " + h.sshdPid());
            if (HostProcesses.alive(h.holderPid())) left.add("holder " + h.holderPid());
            if (Files.exists(LabState.netnsEtc(h.namespace()))) left.add("/etc/netns/" + h.namespace());
        }
        if (HostsTmpfs.mounted(s.path().resolve("hosts"))) left.add("tmpfs on " + s.path().resolve("hosts"));
        if (Files.exists(s.path())) left.add("state dir " + s.path());
        return left;
    }
}
