package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code wait_for}: waits until a port opens or closes, or a path appears (optionally with
 * content matching {@code search_regex}) or disappears, probing once per {@code sleep} seconds
 * until {@code timeout} (see {@link WaitForSpec}); with neither a port nor a path it only sleeps
 * {@code delay + timeout} seconds, as Ansible's does. Never changed; skipped in check mode.
 * Arguments: host, port, path, state, search_regex, timeout, delay, sleep, connect_timeout, msg.
 */
public final class WaitForModule implements Module {
    @Override
    public String name() {
        return "wait_for";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .opt("host", ArgSpec.Type.STR)
                .opt("port", ArgSpec.Type.INT)
                .opt("path", ArgSpec.Type.STR)
                .opt("state", ArgSpec.Type.STR)
                .opt("search_regex", ArgSpec.Type.STR)
                .opt("timeout", ArgSpec.Type.INT)
                .opt("delay", ArgSpec.Type.INT)
                .opt("sleep", ArgSpec.Type.INT)
                .opt("connect_timeout", ArgSpec.Type.INT)
                .opt("msg", ArgSpec.Type.STR);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        WaitForSpec spec = WaitForSpec.from(ctx.args());
        // what Ansible's wait_for registers: state, port, path (null when not given), search_regex,
        // match_groups, match_groupdict, elapsed (whole seconds); a path's state is what it is
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("state", ctx.args().get("state") == null ? "started" : String.valueOf(ctx.args().get("state")));
        data.put("port", spec.port() == 0 ? null : spec.port());
        data.put("path", spec.path());
        data.put("search_regex", spec.searchRegex());
        data.put("match_groups", java.util.List.of());
        data.put("match_groupdict", Map.of());
        if (ctx.check()) {
            data.put("skipped", true);
            return ModuleResult.ok("skipped in check mode").withData(data);
        }
        long t0 = System.nanoTime();
        if (spec.delaySeconds() > 0) Thread.sleep(spec.delaySeconds() * 1000L);
        if (spec.sleepOnly()) {
            Thread.sleep(spec.timeoutSeconds() * 1000L);
            data.put("elapsed", (System.nanoTime() - t0) / 1_000_000_000L);
            return ModuleResult.ok("").withData(data);
        }
        long deadline = t0 + (spec.delaySeconds() + (long) spec.timeoutSeconds()) * 1_000_000_000L;
        while (true) {
            ExecResult r = ctx.run(spec.probe());
            long now = System.nanoTime();
            data.put("elapsed", (now - t0) / 1_000_000_000L);
            if (spec.satisfied(r.exitCode())) {
                if (spec.path() != null) data.put("state", spec.present() ? r.stdout().strip() : "absent");
                return ModuleResult.ok("").withData(data);
            }
            if (now + spec.sleepSeconds() * 1_000_000_000L > deadline) {
                return ModuleResult.failed(spec.timeoutMessage()).withData(data);
            }
            Thread.sleep(spec.sleepSeconds() * 1000L);
        }
    }
}
