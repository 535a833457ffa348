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
 * {@code blockinfile}: keeps a block of lines between two marker lines in a file. Arguments: path
 * (dest, destfile, name), block (content), marker (default {@code # {mark} ANSIBLE MANAGED BLOCK}),
 * marker_begin/marker_end (BEGIN/END), insertafter (regex or EOF), insertbefore (regex or BOF),
 * state present|absent, create, backup, mode, owner, group. {@link BlockInFilePlan} computes the
 * content; the write is atomic through {@link FileEdit}. Not supported: {@code validate}.
 */
public final class BlockInFileModule implements Module {
    @Override
    public String name() {
        return "blockinfile";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("path", ArgSpec.Type.STR).alias("dest", "path").alias("destfile", "path").alias("name", "path")
                .opt("block", ArgSpec.Type.STR).alias("content", "block")
                .opt("marker", ArgSpec.Type.STR)
                .opt("marker_begin", ArgSpec.Type.STR)
                .opt("marker_end", ArgSpec.Type.STR)
                .opt("insertafter", ArgSpec.Type.STR)
                .opt("insertbefore", ArgSpec.Type.STR)
                .opt("state", ArgSpec.Type.STR)
                .opt("create", ArgSpec.Type.BOOL)
                .opt("backup", ArgSpec.Type.BOOL)
                .fileAttributes();
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String path = ArgvExpand.path(ctx, ctx.str("path"));
        String state = ctx.str("state", "present");
        if (!state.equals("present") && !state.equals("absent")) {
            return ModuleResult.failed("value of state must be one of: absent, present, got: " + state);
        }
        FileStat st = HostFiles.stat(ctx, path, true, false);
        Map<String, Object> data = new LinkedHashMap<>();
        if (st.isDirectory()) {
            data.put("rc", 256);
            return ModuleResult.failed("Path " + path + " is a directory !").withData(data);
        }
        if (!st.exists()) {
            // as Ansible: a missing file fails without create, even for state absent
            if (!ctx.bool("create", false)) {
                data.put("rc", 257);
                return ModuleResult.failed("Path " + path + " does not exist !").withData(data);
            }
            if (state.equals("absent")) return ModuleResult.ok("File " + path + " not present");
        }
        String real = st.exists() ? st.realPath() : path;
        String current = st.exists() ? RemoteFile.read(ctx, real).orElse(null) : null;
        BlockInFilePlan plan = BlockInFilePlan.plan(current, ctx.str("block", ""),
                ctx.str("marker", "# {mark} ANSIBLE MANAGED BLOCK"), ctx.str("marker_begin", "BEGIN"),
                ctx.str("marker_end", "END"), ctx.has("insertafter") ? ctx.str("insertafter") : null,
                ctx.has("insertbefore") ? ctx.str("insertbefore") : null, state.equals("present"));
        return FileEdit.apply(ctx, path, st, current, plan.changed() ? plan.content() : null, plan.msg(), data);
    }
}
