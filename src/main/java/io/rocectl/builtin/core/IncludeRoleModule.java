package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code include_role}: names the role (and {@code tasks_from}) the engine reads and runs on this
 * host next; touches nothing on the host. The engine does the including; see
 * {@link IncludeTasksModule}.
 */
public final class IncludeRoleModule implements Module {
    @Override
    public String name() {
        return "include_role";
    }

    @Override
    public ArgSpec args() {
        // not taken (refused as unknown arguments, not ignored): 'public' (the included role's vars
        // and defaults stay with its tasks) and 'handlers_from'
        return ArgSpec.builder().req("name", ArgSpec.Type.STR).opt("tasks_from", ArgSpec.Type.STR)
                .opt("apply", ArgSpec.Type.MAP).opt("allow_duplicates", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("include_role", ctx.str("name"));
        if (ctx.has("tasks_from")) data.put("tasks_from", ctx.str("tasks_from"));
        return ModuleResult.ok("").withData(data);
    }
}
