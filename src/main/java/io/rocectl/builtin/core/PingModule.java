package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.Map;

/**
 * {@code ping}: one round trip through the host's shell (with become when asked), which proves
 * the host is reachable and can run commands. Registers {@code ping: pong} (or {@code data}).
 */
public final class PingModule implements Module {
    @Override
    public String name() {
        return "ping";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("data", ArgSpec.Type.STR);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String data = ctx.str("data", "pong");
        ExecResult r = ctx.run(Cmd.script("printf '%s' \"$1\"", data));
        if (!r.ok() || !r.stdout().equals(data)) {
            String why = r.stderr().isBlank() ? "unexpected reply '" + r.stdout() + "'" : r.stderr().strip();
            return ModuleResult.failed("ping failed (rc=" + r.exitCode() + "): " + why);
        }
        return ModuleResult.ok("").withData(Map.of("ping", data));
    }
}
