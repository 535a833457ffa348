package io.rocectl.modules.roce;

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

/**
 * {@code rdma_limits}: unlimited locked memory for RDMA, for login sessions
 * ({@value LimitsPlanner#LIMITS}) and services ({@value LimitsPlanner#SYSTEMD},
 * {@code DefaultLimitMEMLOCK=infinity}), and the huge page count ({@code vm.nr_hugepages} in
 * {@value LimitsPlanner#SYSCTL} and live, then read back: the kernel may grant fewer, which is
 * reported as a shortfall, or a failure with {@code hugepages_strict}). Arguments (host variable
 * in parentheses): {@code memlock} ({@code rdma_memlock}, default true; false removes rocectl's
 * drop-ins), {@code hugepages} ({@code rdma_hugepages}, default unset: huge pages untouched),
 * {@code hugepages_strict} ({@code rdma_hugepages_strict}, default false), {@code systemctl}
 * ({@code roce_systemctl}: auto|never).
 * <p>Changed means a file changed or the live huge page count moved; a count the kernel keeps
 * refusing is reported every run but is not a change.
 */
public final class RdmaLimitsModule implements Module {
    static final List<String> PATHS = List.of(LimitsPlanner.LIMITS, LimitsPlanner.SYSTEMD, LimitsPlanner.SYSCTL);
    static final String FILE = "@@rocectl-limits-file@@ ";

    /** The three files (a marker line then the content), the live count, whether systemd runs. */
    static final Fact<Map<String, String>> FILES = new Fact<>("rdma_limits_files",
            "for f in \"$@\"; do [ -f \"$f\" ] && { echo '" + FILE + "'\"$f\"; cat -- \"$f\"; }; done",
            RdmaLimitsModule::parseFiles);
    static final Fact<Long> HUGEPAGES = new Fact<>("rdma_hugepages", "cat /proc/sys/vm/nr_hugepages",
            s -> s.strip().matches("\\d+") ? Long.parseLong(s.strip()) : -1L);
    static final Fact<Boolean> SYSTEMD = new Fact<>("rdma_systemd", "[ -d /run/systemd/system ] && echo yes",
            s -> s.strip().equals("yes"));

    @Override
    public String name() { return "rdma_limits"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("memlock", ArgSpec.Type.BOOL).opt("hugepages", ArgSpec.Type.ANY)
                .opt("hugepages_strict", ArgSpec.Type.BOOL).opt("systemctl", ArgSpec.Type.STR);
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
        boolean strict = Values.toBool(RoceHost.setting(ctx, "hugepages_strict", "rdma_hugepages_strict"), false, "hugepages_strict");
        String sc = String.valueOf(RoceHost.setting(ctx, "systemctl", "roce_systemctl") == null ? "auto"
                : RoceHost.setting(ctx, "systemctl", "roce_systemctl")).strip();
        if (!sc.equals("auto") && !sc.equals("never")) return ModuleResult.failed("roce_systemctl must be auto or never, got '" + sc + "'");

        List<io.rocectl.fact.Fact<?>> facts = List.of(FILES, HUGEPAGES, SYSTEMD);
        ExecResult r = ctx.run(FactScript.command(facts, PATHS.toArray(String[]::new)));
        Map<String, String> sections = FactScript.split(r.stdout());
        LimitsPlanner.Facts f = new LimitsPlanner.Facts(FactScript.get(sections, FILES),
                FactScript.get(sections, HUGEPAGES), FactScript.get(sections, SYSTEMD));
        LimitsPlanner.Plan p;
        try {
            p = LimitsPlanner.plan(f, new LimitsPlanner.Want(memlock, hugepages), sc.equals("auto"));
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
        String diff = diff(p, f);
        if (p.empty()) {
            return ModuleResult.ok("memlock " + (memlock ? "unlimited" : "not managed")
                    + (hugepages == null ? "" : ", " + hugepages + " huge pages")).withData(data);
        }
        if (ctx.check()) {
            return ModuleResult.changed("would change " + p.changes().size() + " file(s)"
                    + (p.setHugepages() == null ? "" : ", nr_hugepages " + f.hugepages() + " -> " + p.setHugepages()))
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
        if (!p.notes().isEmpty()) msg.add(String.join("; ", p.notes()));
        String text = String.join("; ", msg);
        if (shortfall != null && strict) return ModuleResult.failed(text).withData(data).withDiff(diff);
        ModuleResult res = !p.changes().isEmpty() || liveMoved ? ModuleResult.changed(text) : ModuleResult.ok(text);
        return res.withData(data).withDiff(diff);
    }

    static String diff(LimitsPlanner.Plan p, LimitsPlanner.Facts f) {
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
        return sb.toString();
    }
}
