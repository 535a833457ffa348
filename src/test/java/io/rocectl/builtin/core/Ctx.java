package io.rocectl.builtin.core;

import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.LocalConnection;

import java.time.Duration;
import java.util.Map;

/** Runs a module on this machine through a real shell, as the engine would. */
final class Ctx {
    private Ctx() {}

    static TaskContext of(Map<String, Object> args, boolean check, boolean diff) {
        return of(args, Map.of(), check, diff);
    }

    static TaskContext of(Map<String, Object> args, Map<String, Object> vars, boolean check, boolean diff) {
        return new TaskContext("h1", new LocalConnection("h1"), args, vars, check, diff, false,
                Duration.ofSeconds(30), null);
    }

    static ModuleResult run(Module m, Map<String, Object> args) throws Exception {
        return m.run(of(args, false, false));
    }

    static ModuleResult check(Module m, Map<String, Object> args) throws Exception {
        return m.run(of(args, true, true));
    }

    static ModuleResult diff(Module m, Map<String, Object> args) throws Exception {
        return m.run(of(args, false, true));
    }
}
