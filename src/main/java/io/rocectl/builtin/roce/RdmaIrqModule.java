package io.rocectl.builtin.roce;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.op.FileChange;
import io.rocectl.op.IrqPersist;
import io.rocectl.op.IrqPlanner;
import io.rocectl.op.PersistPlan;
import io.rocectl.op.RoceNic;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.ShellResource;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code rdma_irq}: spreads each RDMA NIC's completion IRQs over the CPUs of the NIC's NUMA node
 * (see {@link IrqPlanner}), one CPU per IRQ, and persists the placement with a boot unit
 * ({@link IrqPersist}). Arguments (host variable in parentheses): {@code devices} (netdevs;
 * default the selected RoCE NICs that have an RDMA device), {@code exclude_cpus}
 * ({@code rdma_irq_exclude_cpus}, a CPU list such as {@code 0-3,56}), {@code irqbalance}
 * ({@code rdma_irq_irqbalance}: report|stop, default report; a running irqbalance moves the IRQs
 * again), {@code persist} ({@code rdma_irq_persist}, default true), {@code systemctl}
 * ({@code roce_systemctl}: auto|never).
 */
public final class RdmaIrqModule implements Module {
    static final String FILE = "@@rocectl-irq-file@@ ";

    static final Fact<String> NICS = new Fact<>("rdma_irq_nics", ShellResource.text(RdmaIrqModule.class, "rdma-irq-nics.sh"),
            s -> s);
    static final Fact<String> INTERRUPTS = new Fact<>("rdma_irq_interrupts", "cat /proc/interrupts", s -> s);
    static final Fact<String> AFFINITY = new Fact<>("rdma_irq_affinity",
            "for f in /proc/irq/[0-9]*/smp_affinity_list; do n=${f#/proc/irq/}; echo \"${n%%/*} $(cat \"$f\")\"; done", s -> s);
    static final Fact<String> ONLINE = new Fact<>("rdma_irq_online", "cat /sys/devices/system/cpu/online", String::strip);
    static final Fact<Boolean> IRQBALANCE = new Fact<>("rdma_irq_irqbalance",
            "for c in /proc/[0-9]*/comm; do read -r n < \"$c\" && [ \"$n\" = irqbalance ] && echo running; done",
            s -> s.contains("running"));
    static final Fact<Map<String, String>> FILES = new Fact<>("rdma_irq_files", String.join("\n",
            "for f in " + String.join(" ", IrqPersist.PATHS) + "; do [ -f \"$f\" ] && { echo '" + FILE + "'\"$f\"; cat -- \"$f\"; }; done",
            "[ -L " + IrqPersist.LINK + " ] && echo '" + FILE + "@link' && readlink " + IrqPersist.LINK,
            "[ -d /run/systemd/system ] && echo '" + FILE + "@systemd' && echo yes"), RdmaIrqModule::parseFiles);

    @Override
    public String name() { return "rdma_irq"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("devices", ArgSpec.Type.ANY).opt("exclude_cpus", ArgSpec.Type.ANY)
                .opt("irqbalance", ArgSpec.Type.STR).opt("persist", ArgSpec.Type.BOOL).opt("systemctl", ArgSpec.Type.STR)
                .opt("roce_nics", ArgSpec.Type.ANY).opt("roce_subnet", ArgSpec.Type.STR);
    }

    static Map<String, String> parseFiles(String out) {
        return RdmaLimitsModule.parseFiles(out.replace(FILE, RdmaLimitsModule.FILE));
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String ib = str(RoceHost.setting(ctx, "irqbalance", "rdma_irq_irqbalance"), "report");
        String sc = str(RoceHost.setting(ctx, "systemctl", "roce_systemctl"), "auto");
        if (!ib.equals("report") && !ib.equals("stop")) return ModuleResult.failed("rdma_irq_irqbalance must be report or stop, got '" + ib + "'");
        if (!sc.equals("auto") && !sc.equals("never")) return ModuleResult.failed("roce_systemctl must be auto or never, got '" + sc + "'");
        boolean persist = Values.toBool(RoceHost.setting(ctx, "persist", "rdma_irq_persist"), true, "persist");
        Set<Integer> exclude;
        try {
            Object ex = RoceHost.setting(ctx, "exclude_cpus", "rdma_irq_exclude_cpus");
            exclude = new LinkedHashSet<>(IrqPlanner.cpuList(ex == null ? "" : String.join(",", Values.toStringList(ex))));
        } catch (IllegalArgumentException e) {
            return ModuleResult.failed("rdma_irq_exclude_cpus: " + e.getMessage());
        }
        List<String> devices;
        if (ctx.has("devices")) {
            devices = Values.toStringList(ctx.args().get("devices"));
        } else {
            devices = new ArrayList<>();
            for (RoceNic n : RoceHost.gather(ctx).sel().nics()) if (!n.rdmaDev().isEmpty()) devices.add(n.name());
        }
        if (devices.isEmpty()) {
            return ModuleResult.ok("skipped: no RDMA NIC among the selected NICs").withData(Map.of("skipped", true));
        }
        for (String d : devices) {
            if (!d.matches("[A-Za-z0-9_.:@-]+")) return ModuleResult.failed("bad device name '" + d + "'");
        }
        List<Fact<?>> facts = List.of(NICS, INTERRUPTS, AFFINITY, ONLINE, IRQBALANCE, FILES);
        ExecResult r = ctx.run(FactScript.command(facts, devices.toArray(String[]::new)));
        Map<String, String> s = FactScript.split(r.stdout());
        List<IrqPlanner.NicIrqs> nics = IrqPlanner.parseNics(FactScript.get(s, NICS));
        List<String> missing = new ArrayList<>(devices);
        nics.forEach(n -> missing.remove(n.dev()));
        List<Integer> online;
        try {
            online = IrqPlanner.cpuList(FactScript.get(s, ONLINE));
        } catch (IllegalArgumentException e) {
            online = List.of();
        }
        IrqPlanner.Plan plan = IrqPlanner.plan(nics, IrqPlanner.parseInterrupts(FactScript.get(s, INTERRUPTS)),
                IrqPlanner.parseAffinity(FactScript.get(s, AFFINITY)), online, exclude);
        List<String> errors = new ArrayList<>(plan.errors());
        for (String m : missing) errors.add(m + ": no /sys/class/net/" + m + "/device");
        Map<String, String> files = new LinkedHashMap<>(FactScript.get(s, FILES));
        String link = files.containsKey("@link") ? files.remove("@link").strip() : null;
        boolean systemd = files.remove("@systemd") != null;
        boolean irqbalance = FactScript.get(s, IRQBALANCE);
        List<FileChange> fileChanges = persist ? IrqPersist.render(plan.assignments(), files, link) : List.of();
        List<IrqPlanner.Assignment> changes = plan.changes();

        Map<String, Object> data = new LinkedHashMap<>();
        data.put("devices", plan.perNic());
        data.put("irqs", plan.assignments().stream().map(a -> Map.of("irq", a.irq(), "name", a.name(), "cpu", a.cpu(),
                "was", a.current())).toList());
        data.put("irqbalance", irqbalance);
        data.put("files", fileChanges.stream().map(FileChange::path).toList());
        if (!errors.isEmpty()) data.put("errors", errors);
        StringBuilder diff = new StringBuilder();
        for (IrqPlanner.Assignment a : changes) {
            diff.append("- irq ").append(a.irq()).append(' ').append(a.name()).append(": ").append(a.current()).append('\n')
                    .append("+ irq ").append(a.irq()).append(' ').append(a.name()).append(": ").append(a.cpu()).append('\n');
        }
        diff.append(RocePersistModule.diff(new PersistPlan("script", "", fileChanges, List.of(), List.of()),
                new io.rocectl.fact.NetworkFiles(files, Map.of(), Map.of())));
        boolean stopIrqbalance = irqbalance && ib.equals("stop");
        if (stopIrqbalance && !(systemd && sc.equals("auto"))) {
            errors.add("irqbalance is running and cannot be stopped here (no systemd, or roce_systemctl: never)");
            stopIrqbalance = false;
        }
        List<String> msg = new ArrayList<>();
        boolean changed = !changes.isEmpty() || !fileChanges.isEmpty() || stopIrqbalance;
        if (!ctx.check()) {
            if (stopIrqbalance) ctx.runOk(Cmd.of("systemctl", "disable", "--now", "irqbalance.service"));
            if (!changes.isEmpty()) {
                List<String> pairs = new ArrayList<>();
                for (IrqPlanner.Assignment a : changes) { pairs.add(String.valueOf(a.irq())); pairs.add(String.valueOf(a.cpu())); }
                String out = ctx.runOk(Cmd.script("while [ $# -ge 2 ]; do echo \"$2\" > \"/proc/irq/$1/smp_affinity_list\""
                        + " || echo \"refused $1\"; shift 2; done", pairs)).stdout();
                for (String l : TaskContext.lines(out)) {
                    if (l.startsWith("refused ")) errors.add("kernel refused the affinity of IRQ " + l.substring(8) + " (managed interrupt?)");
                }
            }
            if (!fileChanges.isEmpty()) {
                List<String> cmds = systemd && sc.equals("auto") ? List.of("systemctl daemon-reload") : List.of();
                RocePersistModule.apply(ctx, new PersistPlan("script", "", fileChanges, cmds, List.of()));
            }
        }
        String verb = ctx.check() ? "would move " : "moved ";
        msg.add(changes.isEmpty() ? plan.assignments().size() + " IRQs already placed" : verb + changes.size() + " of "
                + plan.assignments().size() + " IRQs");
        plan.perNic().forEach((d, t) -> msg.add(d + ": " + t));
        if (!fileChanges.isEmpty()) msg.add((ctx.check() ? "would persist " : "persisted ") + fileChanges.size() + " file(s)");
        if (stopIrqbalance) msg.add((ctx.check() ? "would stop" : "stopped") + " irqbalance");
        else if (irqbalance) msg.add("WARNING: irqbalance is running and will move these IRQs again "
                + "(set rdma_irq_irqbalance: stop, or ban them with IRQBALANCE_BANNED_CPULIST/--banirq)");
        if (!errors.isEmpty()) {
            msg.add(String.join("; ", errors));
            return ModuleResult.failed(String.join("; ", msg)).withData(data).withDiff(diff.toString());
        }
        ModuleResult res = changed ? ModuleResult.changed(String.join("; ", msg)) : ModuleResult.ok(String.join("; ", msg));
        return res.withData(data).withDiff(diff.toString());
    }

    private static String str(Object v, String def) {
        return v == null || v.toString().isBlank() ? def : v.toString().strip();
    }
}
