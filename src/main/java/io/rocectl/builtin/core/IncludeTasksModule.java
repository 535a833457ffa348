package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.SearchPath;
import io.rocectl.module.TaskContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code include_tasks}: names (rendered per host and loop item) the task file the engine reads
 * and runs on this host next; touches nothing on the host. The result holds {@code include} (the
 * file name) as Ansible's does, and where it was found along the task's {@link SearchPath} (the
 * role's {@code tasks/}, the directory of the including file, the playbook's); the engine does the including. {@code apply} holds keywords
 * (tags, when, become, ignore_errors) put on every included task.
 */
public final class IncludeTasksModule implements Module {

    @Override
    public String name() {
        return "include_tasks";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().freeForm().opt("file", ArgSpec.Type.STR).opt("apply", ArgSpec.Type.MAP);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        String file = ctx.has("file") ? ctx.str("file") : ctx.str(ArgSpec.RAW, null);
        if (file == null || file.isBlank()) throw new ModuleException("include_tasks needs a file name");
        Path found = SearchPath.find(ctx.vars(), "tasks", file.strip());
        if (found == null || !Files.isRegularFile(found)) {
            throw new ModuleException("Could not find or access '" + file + "' (looked in "
                    + SearchPath.candidates(ctx.vars(), "tasks", file.strip()) + ")");
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("include", file);
        data.put(SearchPath.INCLUDE_PATH, found.toAbsolutePath().normalize().toString());
        data.put("include_args", Map.of());
        return ModuleResult.ok("").withData(data);
    }
}
