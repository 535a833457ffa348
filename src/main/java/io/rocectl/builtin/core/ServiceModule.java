package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code service} (and {@code systemd}, see {@link SystemdModule}): a systemd unit's run state
 * and enablement through {@code systemctl}. Arguments: name (unit), state
 * started|stopped|restarted|reloaded, enabled, masked, daemon_reload (daemon-reload first; not
 * a change by itself, as in Ansible). The unit's status comes from one {@code systemctl show};
 * {@link ServicePlan} decides the verbs. Check mode runs nothing (not even daemon-reload).
 * Hosts without systemd are not supported (no SysV init scripts).
 */
public class ServiceModule implements Module {
    private final String name;

    public ServiceModule() {
        this("service");
    }

    protected ServiceModule(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .opt("name", ArgSpec.Type.STR).alias("service", "name").alias("unit", "name")
                .opt("state", ArgSpec.Type.STR)
                .opt("enabled", ArgSpec.Type.BOOL)
                .opt("masked", ArgSpec.Type.BOOL)
                .opt("daemon_reload", ArgSpec.Type.BOOL).alias("daemon-reload", "daemon_reload");
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        Map<String, Object> a = Aliases.apply(ctx.args(), Map.of("service", "name", "unit", "name",
                "daemon-reload", "daemon_reload"));
        boolean reload = io.rocectl.module.Values.toBool(a.get("daemon_reload"), false, "daemon_reload");
        String unit = a.get("name") == null ? null : a.get("name").toString();
        String state = a.get("state") == null ? null : a.get("state").toString();
        Boolean enabled = a.get("enabled") == null ? null : io.rocectl.module.Values.toBool(a.get("enabled"), false, "enabled");
        Boolean masked = a.get("masked") == null ? null : io.rocectl.module.Values.toBool(a.get("masked"), false, "masked");
        if (reload && !ctx.check()) ctx.runOk(Cmd.of("systemctl", "daemon-reload"));
        if (unit == null || unit.isBlank()) {
            if (reload && state == null && enabled == null && masked == null) return ModuleResult.ok("daemon reloaded");
            throw new ModuleException("missing required argument 'name'");
        }
        if (unit.startsWith("-")) throw new ModuleException("invalid unit name '" + unit + "'");
        UnitStatus st = show(ctx, unit);
        ServicePlan plan = ServicePlan.plan(unit, st, state, enabled, masked);
        if (plan.failure() != null) return ModuleResult.failed(plan.failure()).withData(data(unit, st));
        if (!plan.changed()) return ModuleResult.ok(plan.reason()).withData(data(unit, st));
        if (ctx.check()) return ModuleResult.changed("would " + String.join(", ", plan.verbs()) + " " + unit).withData(data(unit, st));
        for (String verb : plan.verbs()) ctx.runOk(Cmd.of("systemctl", verb, unit));
        return ModuleResult.changed(plan.reason()).withData(data(unit, show(ctx, unit)));
    }

    private static UnitStatus show(TaskContext ctx, String unit)
            throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = ctx.run(Cmd.of("systemctl", "show", "-p", "Id", "-p", "LoadState", "-p", "ActiveState",
                "-p", "SubState", "-p", "UnitFileState", unit));
        if (!r.ok()) {
            throw new ModuleException("systemctl show " + unit + " failed (rc=" + r.exitCode() + "): "
                    + (r.stderr().isBlank() ? r.stdout() : r.stderr()).strip());
        }
        return UnitStatus.parse(r.stdout());
    }

    private static Map<String, Object> data(String unit, UnitStatus st) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", unit);
        d.put("state", st.running() ? "started" : "stopped");
        d.put("enabled", st.enabled());
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("Id", st.id());
        status.put("LoadState", st.loadState());
        status.put("ActiveState", st.activeState());
        status.put("SubState", st.subState());
        status.put("UnitFileState", st.unitFileState());
        d.put("status", status);
        return d;
    }
}
