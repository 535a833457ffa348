package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;

import java.util.Map;

/** {@code fail}: fails the task with {@code msg} (default {@code Failed as requested from task}). */
public final class FailModule implements Module {
    @Override
    public String name() {
        return "fail";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("msg", ArgSpec.Type.ANY);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        String msg = ctx.str("msg", "Failed as requested from task");
        return ModuleResult.failed(msg).withData(Map.of("msg", msg));
    }
}
