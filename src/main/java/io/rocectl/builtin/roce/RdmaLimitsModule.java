package io.rocectl.builtin.roce;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.op.FileChange;
import io.rocectl.op.LimitsPlanner;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code rdma_limits}: unlimited locked memory for RDMA, for login sessions
 * ({@value LimitsPlanner#LIMITS}) and services ({@value LimitsPlanner#SYSTEMD},
 * {@code DefaultLimitMEMLOCK=infinity}), and the huge page count ({@code vm.nr_hugepages} in
 * {@value LimitsPlanner#SYSCTL} and live, then read back: the kernel may grant fewer, which is
 * reported as a shortfall, or a failure with {@code hugepages_strict}) or the per-NUMA-node
 * counts (sysfs, live and read back per node, persisted in {@value LimitsPlanner#TMPFILES}).
 * Arguments (host variable in parentheses): {@code memlock} ({@code rdma_memlock}, default true;
 * false removes rocectl's drop-ins), {@code hugepages} ({@code rdma_hugepages}, default unset:
 * huge pages untouched), {@code hugepages_per_node} ({@code rdma_hugepages_per_node}: a map
 * node -> count, a list indexed by node, or {@code "0:1024,1:1024"}; unset: untouched; empty:
 * rocectl's boot file removed), {@code hugepages_size_kb} ({@code rdma_hugepages_size_kb},
 * default 2048; 1048576 for 1 GiB pages),
 * {@code hugepages_strict} ({@code rdma_hugepages_strict}, default false), {@code systemctl}
 * ({@code roce_systemctl}: auto|never).
 * <p>Changed means a file changed or the live huge page count moved; a count the kernel keeps
 * refusing is reported every run but is not a change.
 */
public final class RdmaLimitsModule implements Module {
    static final List<String> PATHS = List.of(LimitsPlanner.LIMITS, LimitsPlanner.SYSTEMD, LimitsPlanner.SYSCTL,
            LimitsPlanner.TMPFILES);
    static final String FILE = "@@rocectl-limits-file@@ ";

    /** The three files (a marker line then the content), the live count, whether systemd runs. */
    static final Fact<Map<String, String>> FILES = new Fact<>("rdma_limits_files",
            "for f in \"$@\"; do [ -f \"$f\" ] && { echo '" + FILE + "'\"$f\"; cat -- \"$f\"; }; done",
            RdmaLimitsModule::parseFiles);
    /** pam_limits' other files, for memlock lines that conflict with rocectl's (reported, never edited). */
    static final Fact<Map<String, String>> PAM = new Fact<>("rdma_limits_pam",
            "for f in " + LimitsPlanner.PAM_CONF + " " + LimitsPlanner.PAM_DIR + "*.conf; do [ -f \"$f\" ] && { echo '" + FILE
                    + "'\"$f\"; cat -- \"$f\"; }; done", RdmaLimitsModule::parseFiles);
    static final Fact<Long> HUGEPAGES = new Fact<>("rdma_hugepages", "cat /proc/sys/vm/nr_hugepages",
            s -> s.strip().matches("\\d+") ? Long.parseLong(s.strip()) : -1L);
    /** Per NUMA node: "node N", then "N SIZE_KB COUNT" per huge page size the node offers. */
    static final Fact<Map<Integer, Map<Long, Long>>> NODES = new Fact<>("rdma_hugepages_nodes", String.join("\n",
            "for d in " + LimitsPlanner.NODES + "/node[0-9]*; do",
            "  [ -d \"$d\" ] || continue; n=${d##*/node}; echo \"node $n\"",
            "  for h in \"$d\"/hugepages/hugepages-*kB; do",
            "    [ -f \"$h/nr_hugepages\" ] || continue; z=${h##*/hugepages-}; echo \"$n ${z%kB} $(cat \"$h/nr_hugepages\")\"",
            "  done",
            "done"), RdmaLimitsModule::parseNodes);
    static final Fact<Boolean> SYSTEMD = new Fact<>("rdma_systemd", "[ -d /run/systemd/system ] && echo yes",
            s -> s.strip().equals("yes"));

    @Override
    public String name() { return "rdma_limits"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("memlock", ArgSpec.Type.BOOL).opt("hugepages", ArgSpec.Type.ANY)
                .opt("hugepages_strict", ArgSpec.Type.BOOL).opt("systemctl", ArgSpec.Type.STR)
                .opt("hugepages_per_node", ArgSpec.Type.ANY).opt("hugepages_size_kb", ArgSpec.Type.ANY);
    }

    static Map<Integer, Map<Long, Long>> parseNodes(String out) {
        Map<Integer, Map<Long, Long>> nodes = new TreeMap<>();
        for (String line : TaskContext.lines(out)) {
            String[] w = line.strip().split("\\s+");
            if (w.length == 2 && w[0].equals("node") && w[1].matches("\\d+")) {
                nodes.putIfAbsent(Integer.parseInt(w[1]), new TreeMap<>());
            } else if (w.length == 3 && w[0].matches("\\d+") && w[1].matches("\\d+") && w[2].matches("\\d+")) {
                nodes.computeIfAbsent(Integer.parseInt(w[0]), k -> new TreeMap<>()).put(Long.parseLong(w[1]), Long.parseLong(w[2]));
            }
        }
        return nodes;
    }

    static Map<String, String> parseFiles(String out) {
        Map<String, String> files = new LinkedHashMap<>();
        String cur = null;
        StringBuilder buf = new StringBuilder();
        for (String line : TaskContext.lines(out)) {
            if (line.startsWith(FILE)) {
                if (cur != null) files.put(cur, buf.toString());
                cur = line.substring(FILE.length());
                buf.setLength(0);
            } else if (cur != null) {
                buf.append(line).append('\n');
            }
        }
        if (cur != null) files.put(cur, buf.toString());
        return files;
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        boolean memlock = Values.toBool(RoceHost.setting(ctx, "memlock", "rdma_memlock"), true, "memlock");
        Object hp = RoceHost.setting(ctx, "hugepages", "rdma_hugepages");
        Long hugepages = hp == null || hp.toString().isBlank() ? null : (long) Values.toInt(hp, 0, "hugepages");
        Object pn = RoceHost.setting(ctx, "hugepages_per_node", "rdma_hugepages_per_node");
        Map<Integer, Long> perNode;
        long sizeKb;
        try {
            perNode = pn == null ? null : LimitsPlanner.parsePerNode(pn);
            Object sz = RoceHost.setting(ctx, "hugepages_size_kb", "rdma_hugepages_size_kb");
            String z = sz == null || sz.toString().isBlank() ? String.valueOf(LimitsPlanner.DEFAULT_SIZE_KB) : sz.toString().strip();
            if (!z.matches("[1-9]\\d{0,9}")) throw new IllegalArgumentException("rdma_hugepages_size_kb must be a page size in kB (2048, 1048576), got '" + z + "'");
            sizeKb = Long.parseLong(z);
        } catch (IllegalArgumentException e) {
            return ModuleResult.failed(e.getMessage().startsWith("rdma_") ? e.getMessage() : "rdma_hugepages_per_node: " + e.getMessage());
        }
        boolean strict = Values.toBool(RoceHost.setting(ctx, "hugepages_strict", "rdma_hugepages_strict"), false, "hugepages_strict");
        String sc = String.valueOf(RoceHost.setting(ctx, "systemctl", "roce_systemctl") == null ? "auto"
                : RoceHost.setting(ctx, "systemctl", "roce_systemctl")).strip();
        if (!sc.equals("auto") && !sc.equals("never")) return ModuleResult.failed("roce_systemctl must be auto or never, got '" + sc + "'");

        List<io.rocectl.fact.Fact<?>> facts = List.of(FILES, PAM, HUGEPAGES, SYSTEMD, NODES);
        ExecResult r = ctx.run(FactScript.command(facts, PATHS.toArray(String[]::new)));
        Map<String, String> sections = FactScript.split(r.stdout());
        Map<String, String> files = new LinkedHashMap<>(FactScript.get(sections, PAM));
        files.putAll(FactScript.get(sections, FILES));
        LimitsPlanner.Facts f = new LimitsPlanner.Facts(files,
                FactScript.get(sections, HUGEPAGES), FactScript.get(sections, SYSTEMD), FactScript.get(sections, NODES));
        LimitsPlanner.Plan p;
        try {
            p = LimitsPlanner.plan(f, new LimitsPlanner.Want(memlock, hugepages, perNode, sizeKb), sc.equals("auto"));
        } catch (IllegalArgumentException e) {
            return ModuleResult.failed(e.getMessage());
        }
        if (hugepages != null && f.hugepages() < 0) return ModuleResult.failed("cannot read /proc/sys/vm/nr_hugepages");

        Map<String, Object> data = new LinkedHashMap<>();
        data.put("memlock", memlock);
        data.put("files", p.changes().stream().map(FileChange::path).toList());
        data.put("commands", p.commands());
        data.put("notes", p.notes());
        if (hugepages != null) {
            data.put("hugepages", hugepages);
            data.put("hugepages_before", f.hugepages());
        }
        if (perNode != null) {
            data.put("hugepages_per_node", perNode);
            data.put("hugepages_size_kb", sizeKb);
            Map<Integer, Long> before = new TreeMap<>();
            for (Integer n : perNode.keySet()) before.put(n, f.nodes().get(n).get(sizeKb));
            data.put("hugepages_per_node_before", before);
        }
        String diff = diff(p, f, sizeKb);
        if (p.empty()) {
            return ModuleResult.ok("memlock " + (memlock ? "unlimited" : "not managed")
                    + (hugepages == null ? "" : ", " + hugepages + " huge pages")
                    + (perNode == null || perNode.isEmpty() ? "" : ", " + sizeKb + " kB huge pages per node " + perNode)
                    + (p.notes().isEmpty() ? "" : "; " + String.join("; ", p.notes()))).withData(data);
        }
        if (ctx.check()) {
            return ModuleResult.changed("would change " + p.changes().size() + " file(s)"
                    + (p.setHugepages() == null ? "" : ", nr_hugepages " + f.hugepages() + " -> " + p.setHugepages())
                    + (p.setPerNode().isEmpty() ? "" : ", huge pages of node(s) " + p.setPerNode().keySet()))
                    .withData(data).withDiff(diff);
        }
        List<String> rm = new ArrayList<>();
        for (FileChange c : p.changes()) {
            if (c.content() == null) rm.add(c.path());
            else RemoteFile.writeAtomic(ctx, c.path(), c.content(), c.mode());
        }
        if (!rm.isEmpty()) ctx.runOk(Cmd.script("rm -f -- \"$@\"", rm));
        for (String c : p.commands()) {
            if (c.equals("systemctl daemon-reload")) ctx.runOk(Cmd.of("systemctl", "daemon-reload"));
        }
        List<String> msg = new ArrayList<>();
        if (!p.changes().isEmpty()) msg.add("wrote " + p.changes().size() + " file(s)");
        boolean liveMoved = false;
        String shortfall = null;
        if (p.setHugepages() != null) {
            String out = ctx.runOk(Cmd.script("printf '%s\\n' \"$1\" > /proc/sys/vm/nr_hugepages; cat /proc/sys/vm/nr_hugepages",
                    String.valueOf(p.setHugepages()))).stdout().strip();
            long granted = out.matches("\\d+") ? Long.parseLong(out) : -1;
            data.put("hugepages_granted", granted);
            liveMoved = granted != f.hugepages();
            shortfall = LimitsPlanner.shortfall(p.setHugepages(), granted);
            msg.add("nr_hugepages " + f.hugepages() + " -> " + granted);
        }
        if (shortfall != null) {
            data.put("hugepages_shortfall", p.setHugepages() - (long) data.get("hugepages_granted"));
            msg.add(shortfall);
        }
        if (!p.setPerNode().isEmpty()) {
            Map<Integer, Long> granted = applyNodes(ctx, p.setPerNode(), sizeKb);
            data.put("hugepages_per_node_granted", granted);
            Map<Integer, Long> short_ = new TreeMap<>();
            for (Map.Entry<Integer, Long> e : p.setPerNode().entrySet()) {
                long g = granted.getOrDefault(e.getKey(), -1L);
                if (g != f.nodes().get(e.getKey()).get(sizeKb)) liveMoved = true;
                msg.add("node " + e.getKey() + " " + sizeKb + " kB huge pages " + f.nodes().get(e.getKey()).get(sizeKb) + " -> "
                        + (g < 0 ? "unreadable" : String.valueOf(g)));
                String s = LimitsPlanner.nodeShortfall(e.getKey(), sizeKb, e.getValue(), g);
                if (s != null) {
                    short_.put(e.getKey(), e.getValue() - Math.max(g, 0));
                    msg.add(s);
                    if (shortfall == null) shortfall = s;
                }
            }
            if (!short_.isEmpty()) data.put("hugepages_per_node_shortfall", short_);
        }
        if (!p.notes().isEmpty()) msg.add(String.join("; ", p.notes()));
        String text = String.join("; ", msg);
        if (shortfall != null && strict) return ModuleResult.failed(text).withData(data).withDiff(diff);
        ModuleResult res = !p.changes().isEmpty() || liveMoved ? ModuleResult.changed(text) : ModuleResult.ok(text);
        return res.withData(data).withDiff(diff);
    }

    /** Writes each node's count and reads back what the kernel granted (-1: write refused or unreadable). */
    static Map<Integer, Long> applyNodes(TaskContext ctx, Map<Integer, Long> set, long sizeKb)
            throws TransportException, CommandTimeoutException, InterruptedException {
        List<String> args = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : set.entrySet()) {
            args.add(LimitsPlanner.nodeFile(e.getKey(), sizeKb));
            args.add(String.valueOf(e.getValue()));
        }
        String out = ctx.runOk(Cmd.script("while [ $# -ge 2 ]; do printf '%s\\n' \"$2\" > \"$1\" || :;"
                + " echo \"$1 $(cat \"$1\" 2>/dev/null)\"; shift 2; done", args)).stdout();
        Map<Integer, Long> granted = new TreeMap<>();
        for (Map.Entry<Integer, Long> e : set.entrySet()) {
            String pre = LimitsPlanner.nodeFile(e.getKey(), sizeKb) + " ";
            long g = -1;
            for (String l : TaskContext.lines(out)) {
                if (l.startsWith(pre) && l.substring(pre.length()).strip().matches("\\d+")) g = Long.parseLong(l.substring(pre.length()).strip());
            }
            granted.put(e.getKey(), g);
        }
        return granted;
    }

    static String diff(LimitsPlanner.Plan p, LimitsPlanner.Facts f, long sizeKb) {
        StringBuilder sb = new StringBuilder();
        for (FileChange c : p.changes()) {
            String old = f.files().get(c.path());
            if (c.content() == null) {
                sb.append("- file ").append(c.path()).append('\n');
                continue;
            }
            sb.append("--- ").append(c.path()).append('\n');
            if (old != null) for (String l : TaskContext.lines(old)) sb.append('-').append(l).append('\n');
            sb.append("+++ ").append(c.path()).append('\n');
            for (String l : TaskContext.lines(c.content())) sb.append('+').append(l).append('\n');
        }
        if (p.setHugepages() != null) {
            sb.append("- live vm.nr_hugepages: ").append(f.hugepages()).append("\n+ live vm.nr_hugepages: ")
                    .append(p.setHugepages()).append('\n');
        }
        for (Map.Entry<Integer, Long> e : p.setPerNode().entrySet()) {
            String file = LimitsPlanner.nodeFile(e.getKey(), sizeKb);
            sb.append("- live ").append(file).append(": ").append(f.nodes().get(e.getKey()).get(sizeKb)).append('\n')
                    .append("+ live ").append(file).append(": ").append(e.getValue()).append('\n');
        }
        return sb.toString();
    }
}
