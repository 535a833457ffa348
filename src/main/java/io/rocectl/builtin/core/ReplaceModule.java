package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code replace}: replaces every match of a regular expression in a file. Arguments: path
 * (dest, destfile, name), regexp, replace, after, before, backup, mode, owner, group.
 * {@link ReplacePlan} computes the content; the write is atomic through {@link FileEdit}. Not
 * supported: {@code validate}, {@code encoding} other than utf-8.
 */
public final class ReplaceModule implements Module {
    @Override
    public String name() {
        return "replace";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("path", ArgSpec.Type.STR).alias("dest", "path").alias("destfile", "path").alias("name", "path")
                .req("regexp", ArgSpec.Type.STR)
                .opt("replace", ArgSpec.Type.STR)
                .opt("after", ArgSpec.Type.STR)
                .opt("before", ArgSpec.Type.STR)
                .opt("backup", ArgSpec.Type.BOOL)
                .fileAttributes();
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String path = ArgvExpand.path(ctx, ctx.str("path"));
        FileStat st = HostFiles.stat(ctx, path, true, false);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("rc", 0);
        if (st.isDirectory()) {
            data.put("rc", 256);
            return ModuleResult.failed("Path " + path + " is a directory !").withData(data);
        }
        if (!st.exists()) {
            data.put("rc", 257);
            return ModuleResult.failed("Path " + path + " does not exist !").withData(data);
        }
        String current = RemoteFile.read(ctx, st.realPath()).orElse("");
        ReplacePlan plan = ReplacePlan.plan(current, ctx.str("regexp"), ctx.str("replace", ""),
                ctx.has("after") ? ctx.str("after") : null, ctx.has("before") ? ctx.str("before") : null);
        if (!plan.changed() && !plan.msg().isEmpty()) return ModuleResult.ok(plan.msg()).withData(data);
        return FileEdit.apply(ctx, path, st, current, plan.content(), plan.msg(), data);
    }
}
