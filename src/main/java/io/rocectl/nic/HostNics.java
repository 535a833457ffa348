package io.rocectl.nic;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.fact.Facts;
import io.rocectl.fact.NetworkFiles;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.module.ModuleException;
import io.rocectl.module.Values;
import io.rocectl.op.NicSelection;
import io.rocectl.op.NicSelector;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * A host's network snapshot and RoCE NIC selection, read in one round trip over a connection
 * (or none: while no command has started on the connection since the last read, that read is
 * reused, see {@link #snapshotText}).
 * The read runs WITHOUT become (it only reads), so {@code SSH_CONNECTION} reaches it: sudo would
 * clear it. Selection settings come from {@code setting} (a module's task arguments first, then
 * host variables; the prober: host variables): {@code roce_nics}, {@code roce_subnet},
 * {@code roce_force_mgmt}, {@code roce_mgmt_if}; {@code ansible_host} from the host variables.
 */
public record HostNics(NetSnapshot snap, NicSelection sel, Map<String, String> sections) {

    /**
     * The variable that confirms an empty selection on purpose ({@code roce_nics: []} or
     * {@code roce_persist} {@code state: absent}): only then may rocectl remove its configuration.
     */
    public static final String CONFIRM_REMOVE = "roce_confirm_remove";

    /**
     * Reads the snapshot plus {@code extra} facts in one command ({@code args} are the script's
     * $1..) and selects the RoCE NICs.
     *
     * @param needNics an empty selection fails (unless {@link #removalConfirmed} holds)
     */
    public static HostNics read(Connection conn, Duration timeout, Function<String, Object> setting,
                                Map<String, Object> vars, boolean needNics, List<Fact<?>> extra, String... args)
            throws TransportException, CommandTimeoutException, InterruptedException {
        List<Fact<?>> all = facts(conn, true);
        for (Fact<?> f : extra) if (!all.contains(f)) all.add(f);
        Read got = snapshotText(conn, timeout, all, List.of(args));
        return of(got, setting, vars, needNics);
    }

    /**
     * As {@link #read}, for the prober: the snapshot and the selection without the files only the
     * RoCE modules use ({@link #SHARED_ROOT}), so a probe of many hosts reads no more than it needs.
     */
    public static HostNics readNics(Connection conn, Duration timeout, Function<String, Object> setting,
                                    Map<String, Object> vars, boolean needNics)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return of(snapshotText(conn, timeout, facts(conn, false), List.of()), setting, vars, needNics);
    }

    /**
     * The command {@link #readNics} runs, for a fan-out that runs it on many hosts at once
     * (one Slurm step); parse each host's output with {@link #fromOutput}.
     */
    public static Cmd nicsReadCommand() {
        return FactScript.command(facts(null, false));
    }

    /** As {@link #readNics}, from the output of {@link #nicsReadCommand()} read elsewhere. */
    public static HostNics fromOutput(String stdout, Function<String, Object> setting, Map<String, Object> vars,
                                      boolean needNics) {
        List<String> names = facts(null, false).stream().map(Fact::name).toList();
        return of(new Read(stdout, names, new Parsed()), setting, vars, needNics);
    }

    /** Facts every read carries on this connection ({@code moduleFiles}: and the root-only ones, for a root login). */
    private static List<Fact<?>> facts(Connection conn, boolean moduleFiles) {
        List<Fact<?>> all = new ArrayList<>(NetSnapshot.FACTS);
        all.addAll(SHARED);
        if (moduleFiles && "root".equals(conn.user())) all.addAll(SHARED_ROOT);
        return all;
    }

    /** A command to run first, in the same round trip as the read after it: a script, its $1.., its stdin. */
    public record Before(String script, List<String> args, byte[] stdin) {
        public Before {
            args = List.copyOf(args);
        }
    }

    /** What {@link Before} printed on stdout and stderr and how it exited, and the read after it. */
    public record After(ExecResult before, HostNics nics) {}

    /** The line between what {@link Before} printed and the read; then its exit code. */
    public static final String THEN = "@@rocectl-then@@ ";

    /**
     * Runs {@code before} (a change), then reads the snapshot, in ONE command: a module that
     * changed the host sees the host as it is afterwards without a second round trip, and the
     * next task may reuse that read. Both run WITHOUT become (the read needs SSH_CONNECTION): for
     * a login user that is not root, run the change and {@link #read} as two commands instead.
     * The read happens whatever {@code before} did (its exit code is in {@link After#before()}).
     * {@code before} must leave the RDMA devices alone: the RDMA section of the connection's last
     * recent read is carried over (see {@link #carried}).
     * An empty selection is not an error here (the change has happened; the caller judges).
     */
    public static After readAfter(Connection conn, Duration timeout, Function<String, Object> setting,
                                  Map<String, Object> vars, Before before)
            throws TransportException, CommandTimeoutException, InterruptedException {
        List<Fact<?>> all = facts(conn, true);
        Memo earlier = MEMO.get(conn);
        String rdma = carried(earlier);
        if (rdma != null) all.remove(Facts.RDMA);
        String read = FactScript.command(all).argv().get(2);
        String script = "(\n" + before.script() + "\n)\nprintf '\\n%s%s\\n' '" + THEN + "' \"$?\"\n" + read;
        long started = conn.commandsStarted();
        Cmd cmd = Cmd.script(script, before.args()).inSharedShell();
        ExecResult r = conn.exec(before.stdin() == null ? cmd : cmd.withStdin(before.stdin()), timeout);
        int at = r.stdout().indexOf("\n" + THEN);
        if (at < 0) {
            MEMO.remove(conn);
            throw new ModuleException("the change ran, but the read after it did not (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        int eol = r.stdout().indexOf('\n', at + 1);
        String rest = eol < 0 ? "" : r.stdout().substring(eol + 1);
        int rc = Integer.parseInt(r.stdout().substring(at + 1 + THEN.length(), eol < 0 ? r.stdout().length() : eol).strip());
        if (rdma != null) {
            rest = FactScript.withSection(rest, Facts.RDMA.name(), rdma);
            all.add(Facts.RDMA);
        }
        List<String> names = all.stream().map(Fact::name).toList();
        Parsed parsed = new Parsed();
        long after = conn.commandsStarted();
        if (started >= 0 && after == started + 1) {
            // as old as the oldest part of it: a carried RDMA section keeps its own age
            MEMO.put(conn, new Memo(after, rdma != null ? earlier.atNanos() : System.nanoTime(), names, List.of(), rest, parsed));
        } else {
            MEMO.remove(conn);
        }
        ExecResult first = new ExecResult(rc, r.stdout().substring(0, at), r.stderr(), r.millis());
        return new After(first, of(new Read(rest, names, parsed), setting, vars, false));
    }

    /**
     * The RDMA section of the connection's last read, when it carried one and is recent, else
     * null. A read after one of rocectl's RoCE changes ({@link #readAfter}: routing rules and
     * routes, ARP sysctls, a neighbour flush) takes it over instead of walking sysfs again: none of
     * those changes touches an RDMA device, a port or a GID, and a real port lists up to 256 GID
     * files, read one by one.
     */
    private static String carried(Memo m) {
        if (m == null || !m.facts().contains(Facts.RDMA.name()) || System.nanoTime() - m.atNanos() >= REUSE_NANOS) return null;
        return m.parsed().sections(m.stdout()).get(Facts.RDMA.name());
    }

    private static HostNics of(Read got, Function<String, Object> setting, Map<String, Object> vars, boolean needNics) {
        String stdout = got.stdout();
        NetSnapshot snap;
        Map<String, String> sections = new java.util.LinkedHashMap<>(got.parsed().sections(stdout));
        sections.keySet().retainAll(got.facts());
        try {
            snap = got.parsed().snapshot(stdout);
        } catch (RuntimeException e) {
            throw new ModuleException("cannot read the network state: " + e.getMessage(), e);
        }
        if (snap.ifaces().isEmpty()) {
            throw new ModuleException("no interfaces from 'ip -j addr' (iproute2 missing or too old?)");
        }
        NicSelection sel = selection(snap, setting, vars);
        if (needNics && sel.nics().isEmpty() && !removalConfirmed(setting)) {
            throw new ModuleException(sel.emptyMessage() + (explicitlyEmpty(setting)
                    ? "; roce_nics is [] on purpose? set " + CONFIRM_REMOVE + ": true to remove rocectl's configuration"
                    : ""));
        }
        return new HostNics(snap, sel, sections);
    }

    /**
     * The RoCE NIC selection of a snapshot from the selection settings ({@code roce_nics},
     * {@code roce_subnet}, {@code roce_force_mgmt}, {@code roce_mgmt_if}) and {@code ansible_host};
     * {@code roce_nics: []} selects none. A bad setting is a ModuleException.
     */
    public static NicSelection selection(NetSnapshot snap, Function<String, Object> setting, Map<String, Object> vars) {
        Object subnet = setting.apply("roce_subnet");
        Object host = vars.get("ansible_host");
        Object mgmt = setting.apply("roce_mgmt_if");
        NicSelector.Criteria c = new NicSelector.Criteria(nicPatterns(setting.apply("roce_nics")),
                subnet == null || subnet.toString().isBlank() ? null : subnet.toString().strip(),
                Values.toBool(setting.apply("roce_force_mgmt"), false, "roce_force_mgmt"),
                host == null ? null : host.toString(), mgmt == null ? null : mgmt.toString());
        NicSelection sel;
        try {
            sel = NicSelector.select(snap, c);
        } catch (IllegalArgumentException e) {
            throw new ModuleException(e.getMessage());
        }
        if (explicitlyEmpty(setting)) {
            // roce_nics: [] names no NIC; unset is what selects the default (every RDMA NIC)
            sel = new NicSelection(List.of(), sel.mgmtIf(), sel.mgmtIp(), sel.mgmtHow(), sel.notes(), "roce_nics []",
                    sel.seen());
        }
        return sel;
    }

    /**
     * Facts every snapshot carries besides {@link NetSnapshot#FACTS}, so that the RoCE tasks that
     * follow one another on a host (facts, routing, ARP, persist, neighbours, verify) can share one
     * read (the neighbour table too: one {@code ip -j neigh} more per read, one read less per run).
     */
    static final List<Fact<?>> SHARED = List.of(Facts.SYSCTL_NET, Facts.ROCE_SYSCTL_FILE, Facts.NEIGH);

    /**
     * Facts the snapshot also carries when the login user is root (the read runs without become,
     * and these need root: NetworkManager keyfiles, {@code /run/rocectl}): the persistence files
     * ({@code roce_persist}), {@code /etc/nccl.conf} ({@code nccl_env}) and the rollback timers
     * ({@code roce_routing}), so that on a converged host those tasks start no command of their own.
     * A module that finds its section missing (another user) reads for itself, as before.
     */
    static final List<Fact<?>> SHARED_ROOT = List.of(NetworkFiles.FACT, Facts.NCCL_CONF, Facts.ROLLBACK_MARKERS);

    /** How long a remembered snapshot may be reused at most (a periodic job must see the host anew). */
    static final long REUSE_NANOS = 60_000_000_000L;

    /** What one connection's last read printed, with its fact names, arguments and time. */
    private record Memo(long started, long atNanos, List<String> facts, List<String> args, String stdout, Parsed parsed) {}

    /**
     * A read's output parsed once, when first asked: its sections and its snapshot. A remembered
     * read hands the same one to every task that reuses it (each would parse the same text again).
     */
    private static final class Parsed {
        private Map<String, String> sections;
        private NetSnapshot snap;

        synchronized Map<String, String> sections(String stdout) {
            if (sections == null) sections = Collections.unmodifiableMap(FactScript.split(stdout));
            return sections;
        }

        synchronized NetSnapshot snapshot(String stdout) {
            if (snap == null) snap = NetSnapshot.parse(sections(stdout));
            return snap;
        }
    }

    private static final Map<Connection, Memo> MEMO = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * The read's output: the one remembered for this connection when no command has started on
     * the connection since it was taken (so nothing rocectl did can have changed the host), it
     * covers the facts and arguments asked for, and it is recent; otherwise one new round trip.
     */
    private static Read snapshotText(Connection c, Duration timeout, List<Fact<?>> facts, List<String> args)
            throws TransportException, CommandTimeoutException, InterruptedException {
        List<String> names = facts.stream().map(Fact::name).toList();
        // the root-only extras are welcome, not required: a module whose section is missing reads for itself
        List<String> required = facts.stream().filter(f -> !SHARED_ROOT.contains(f)).map(Fact::name).toList();
        long before = c.commandsStarted();
        Memo m = MEMO.get(c);
        if (m != null && before >= 0 && m.started() == before && m.args().equals(args)
                && m.facts().containsAll(required) && System.nanoTime() - m.atNanos() < REUSE_NANOS) {
            return new Read(m.stdout(), m.facts(), m.parsed());
        }
        ExecResult r = c.exec(FactScript.command(facts, args.toArray(String[]::new)), timeout);
        if (r.dropped() > 0) {
            // a cut read would parse as a host with fewer interfaces, routes or files: refuse it
            throw new ModuleException("the host printed more than the output limit while its network state was read ("
                    + r.dropped() + " bytes dropped; " + io.rocectl.transport.OutputLimit.ENV + " raises the limit)");
        }
        Parsed parsed = new Parsed();
        long after = c.commandsStarted();
        if (before >= 0 && after == before + 1) {
            MEMO.put(c, new Memo(after, System.nanoTime(), names, List.copyOf(args), r.stdout(), parsed));
        } else {
            MEMO.remove(c);
        }
        return new Read(r.stdout(), names, parsed);
    }

    /** A read's output and the facts whose sections in it still hold. */
    private record Read(String stdout, List<String> facts, Parsed parsed) {}

    /**
     * Vouches that the commands started on {@code c} since its remembered snapshot changed
     * nothing the snapshot holds (the caller ran only reads, or found nothing to change), so the
     * next task may still reuse it. Does nothing when there is no snapshot or the connection does
     * not count its commands.
     */
    public static void keep(Connection c) {
        keep(c, List.of());
    }

    /**
     * As {@link #keep(Connection)}, for commands that changed only what {@code stale} hold (a
     * module that wrote a file the snapshot carries): the rest of the snapshot may still be
     * reused; a reader that asks for a stale fact reads anew.
     */
    public static void keep(Connection c, List<Fact<?>> stale) {
        long now = c.commandsStarted();
        if (now < 0) return;
        List<String> gone = stale.stream().map(Fact::name).toList();
        MEMO.computeIfPresent(c, (k, m) -> new Memo(now, m.atNanos(),
                m.facts().stream().filter(f -> !gone.contains(f)).toList(), m.args(), m.stdout(), m.parsed()));
    }

    /** Drops the remembered snapshot of {@code c}: the next read goes to the host. */
    public static void forget(Connection c) {
        MEMO.remove(c);
    }

    /** roce_nics given as an explicit empty list ({@code []}, not unset). */
    public static boolean explicitlyEmpty(Function<String, Object> setting) {
        Object v = setting.apply("roce_nics");
        if (v instanceof List<?> l) return l.isEmpty();
        return v instanceof String s && s.replaceAll("\\s", "").equals("[]");
    }

    /** Explicit {@code roce_nics: []} together with {@code roce_confirm_remove: true}. */
    public static boolean removalConfirmed(Function<String, Object> setting) {
        return explicitlyEmpty(setting) && confirmed(setting);
    }

    /** {@code roce_confirm_remove: true}. */
    public static boolean confirmed(Function<String, Object> setting) {
        return Values.toBool(setting.apply(CONFIRM_REMOVE), false, CONFIRM_REMOVE);
    }

    /**
     * roce_nics as patterns: a list, one comma-separated string, or a string that still looks
     * like a flow list ({@code ["ens*f0", "ens*f1"]}) when it reached us unparsed.
     */
    public static List<String> nicPatterns(Object v) {
        if (v instanceof String s && s.strip().startsWith("[") && s.strip().endsWith("]")) {
            String inner = s.strip().substring(1, s.strip().length() - 1);
            List<String> out = new ArrayList<>();
            for (String p : Values.toStringList(inner)) {
                String t = p.strip();
                if (t.length() >= 2 && (t.startsWith("\"") && t.endsWith("\"") || t.startsWith("'") && t.endsWith("'"))) {
                    t = t.substring(1, t.length() - 1);
                }
                if (!t.isEmpty()) out.add(t);
            }
            return out;
        }
        return Values.toStringList(v);
    }
}
