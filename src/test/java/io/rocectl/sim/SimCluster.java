package io.rocectl.sim;

import io.rocectl.exec.Connector;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.remediate.Endpoints;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-process cluster of N hosts x K NICs that answers the cheap-probe protocol from a
 * {@link FaultModel}: a {@link Connector} whose connections run no shell but read the probe
 * command's arguments and stdin (the compact endpoint table, or explicit pairs) the way
 * {@code cheap-probe.sh} does and print what the script would print on such a cluster. It exists to
 * measure the control node alone (its CPU time and heap) at sizes no lab reaches, and to check the
 * diagnosis against known faults. The CPU time spent answering is counted apart ({@link #hostCpuNanos}).
 *
 * <p>Addresses: NIC k of host h is {@code 10.k.(h/250).(h%250+1)} in one /8 (a shared subnet, so ARP
 * flux is visible from the sysctls); NIC names {@code ens<k>}; the management NIC is {@code eth0}.
 */
public final class SimCluster implements Connector {
    private final int n, k;
    private volatile FaultModel faults;
    private final AtomicLong hostCpu = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** The last endpoint table parsed (every host of a pass gets the same array). */
    private volatile Table lastTable;

    /** Addresses and MACs per {@code host * K + nic}, built once (answers run per pair). */
    private final String[] ips, macs;

    public SimCluster(int hosts, int nicsPerHost, FaultModel faults) {
        this.n = hosts;
        this.k = nicsPerHost;
        this.faults = faults;
        ips = new String[n * k];
        macs = new String[n * k];
        for (int h = 0; h < n; h++) {
            for (int i = 0; i < k; i++) {
                ips[h * k + i] = ip(h, i);
                macs[h * k + i] = mac(h, i);
            }
        }
    }

    /** Hosts whose SSH went away (sshd stopped): every command fails as a lost connection does. */
    private final Set<Integer> down = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Host {@code h} stops answering (its sshd is gone) from now on. */
    public void down(int h) {
        down.add(h);
    }

    public void faults(FaultModel f) {
        this.faults = f;
    }

    public static String host(int h) {
        return String.format("sim%05d", h);
    }

    public static String nic(int i) {
        return "ens" + i;
    }

    public static String ip(int h, int i) {
        return "10." + i + "." + (h / 250) + "." + (h % 250 + 1);
    }

    public static String mac(int h, int i) {
        return String.format("02:%02x:%02x:%02x:00:01", i, (h >> 8) & 0xff, h & 0xff);
    }

    /** The endpoints as the control node would gather them. */
    public Endpoints.Gathered gathered() {
        Map<String, List<NicEndpoint>> byHost = new LinkedHashMap<>();
        for (int h = 0; h < n; h++) {
            List<NicEndpoint> l = new ArrayList<>(k);
            for (int i = 0; i < k; i++) l.add(new NicEndpoint(host(h), nic(i), ip(h, i), 8, mac(h, i), null, null, i));
            byHost.put(host(h), l);
        }
        return new Endpoints.Gathered(byHost, Map.of(), Map.of());
    }

    /** CPU time the simulated hosts spent answering (to subtract from the process's). */
    public long hostCpuNanos() {
        return hostCpu.get();
    }

    /** Probe commands answered. */
    public long calls() {
        return calls.get();
    }

    @Override
    public Connection open(String host) {
        int h = Integer.parseInt(host.substring(3));
        return new Connection() {
            @Override public String host() { return host; }
            @Override public String user() { return "root"; }
            @Override public void close() { }

            @Override
            public ExecResult exec(Cmd cmd, Duration timeout) throws io.rocectl.transport.TransportException {
                if (down.contains(h)) throw new io.rocectl.transport.TransportException(host + ": connection lost during command");
                long t0 = threads.getCurrentThreadCpuTime();
                try {
                    calls.incrementAndGet();
                    return new ExecResult(0, answer(h, cmd), "", 0);
                } finally {
                    hostCpu.addAndGet(threads.getCurrentThreadCpuTime() - t0);
                }
            }
        };
    }

    /** The endpoint table of a compact probe, parsed: per table row host, NIC ordinal, group, focus. */
    private record Table(byte[] source, String rule, int[] host, int[] nic, int[] group, boolean[] focus,
                         Map<Integer, int[]> members) {}

    private Table table(byte[] in) {
        Table t = lastTable;
        if (t != null && t.source() == in) return t;
        String[] lines = new String(in, StandardCharsets.US_ASCII).split("\n");
        int rows = lines.length - 1;
        int[] host = new int[rows], nic = new int[rows], group = new int[rows];
        boolean[] focus = new boolean[rows];
        Map<Integer, List<Integer>> g = new HashMap<>();
        for (int r = 0; r < rows; r++) {
            String[] f = lines[r + 1].split(" ");
            host[r] = Integer.parseInt(f[1]);
            nic[r] = Integer.parseInt(f[2].substring(3));
            group[r] = Integer.parseInt(f[5]);
            focus[r] = f[6].equals("1");
            g.computeIfAbsent(group[r], x -> new ArrayList<>()).add(r);
        }
        Map<Integer, int[]> members = new HashMap<>();
        g.forEach((key, l) -> members.put(key, l.stream().mapToInt(Integer::intValue).toArray()));
        t = new Table(in, lines[0].substring(2), host, nic, group, focus, members);
        lastTable = t;
        return t;
    }

    private String answer(int self, Cmd cmd) {
        List<String> argv = cmd.argv();
        if (argv.size() < 14 || !argv.get(2).equals(CheapProbeScript.text()))
            throw new IllegalArgumentException("the simulated cluster answers the cheap probe only");
        int count = Integer.parseInt(argv.get(4)), retries = Integer.parseInt(argv.get(5));
        if (Integer.parseInt(argv.get(12)) != self && startsWithRule(cmd.stdin()))
            throw new IllegalArgumentException("host index " + argv.get(12) + " sent to " + host(self));
        FaultModel fm = faults;
        StringBuilder out = new StringBuilder(256);
        out.append("H 0");
        for (int i = 0; i < k; i++) out.append(' ').append(nic(i)).append('=').append(dead(fm, self, i) ? "down:0" : "up:1");
        out.append("\nS");
        for (int i = 0; i < k; i++) out.append(' ').append(nic(i)).append('=').append(fm.fluxHosts().contains(self) ? 0 : 1);
        out.append("\nA 0 0\n");
        if (startsWithRule(cmd.stdin())) {
            Table t = table(cmd.stdin());
            boolean intra = t.rule().equals("intra");
            boolean meFocus = false;
            for (int r = 0; r < t.host().length; r++) if (t.host()[r] == self && t.focus()[r]) meFocus = true;
            for (int r = 0; r < t.host().length; r++) {
                if (t.host()[r] != self) continue;
                int i = t.nic()[r], judged = 0, clean = 0;
                for (int m : t.members().get(t.group()[r])) {
                    if (m == r || !(meFocus || t.focus()[m]) || intra != (t.host()[m] == self)) continue;
                    judged++;
                    if (!pair(out, fm, self, i, t.host()[m], t.nic()[m], count, retries, false)) clean++;
                }
                out.append("C ").append(nic(i)).append(' ').append(judged).append(' ').append(clean).append(' ')
                        .append(count).append('\n');
            }
        } else if (cmd.stdin() != null) {
            for (String line : new String(cmd.stdin(), StandardCharsets.US_ASCII).split("\n")) {
                String[] f = line.split(" ");
                if (f.length != 3) continue;
                int i = Integer.parseInt(f[0].substring(3));
                String[] d = f[2].split("\\.");
                int dn = Integer.parseInt(d[1]), dh = Integer.parseInt(d[2]) * 250 + Integer.parseInt(d[3]) - 1;
                pair(out, fm, self, i, dh, dn, count, retries, true);
            }
        }
        return out.toString();
    }

    private static boolean startsWithRule(byte[] in) {
        return in != null && in.length > 2 && in[0] == 'R' && in[1] == ' ';
    }

    private boolean dead(FaultModel fm, int h, int i) {
        return fm.deadNics().contains(h * k + i);
    }

    /** Appends the pair's result line unless it is clean (and {@code always} is false); true when a line was written. */
    private boolean pair(StringBuilder out, FaultModel fm, int a, int i, int b, int j, int count, int retries,
                         boolean always) {
        boolean srcDead = dead(fm, a, i), dstDead = dead(fm, b, j), cut = fm.cut(a, b);
        boolean noRules = fm.noRules().contains(a);
        boolean flux = fm.fluxHosts().contains(b) && a != b;
        boolean pingOk = !srcDead && !dstDead && !cut;
        boolean clean = pingOk && !noRules && !(flux && j != 0);
        if (clean && !always) return false;
        String neighMac = macs[b * k + (flux ? 0 : j)];
        out.append("P ").append(nic(i)).append(' ').append(ips[a * k + i]).append(' ').append(ips[b * k + j]).append(' ')
                .append(srcDead ? "down:0" : "up:1").append(' ').append(noRules ? "eth0" : nic(i)).append(" main na ");
        if (pingOk) out.append(count).append('/').append(count).append(' ').append(neighMac).append("@REACHABLE");
        else out.append(count * (retries + 1)).append("/0 -@FAILED");
        out.append(" na\n");
        return true;
    }
}
