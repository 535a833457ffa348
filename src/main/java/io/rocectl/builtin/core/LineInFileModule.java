package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code lineinfile}: makes sure one line is in a file (or is not). Arguments: path (dest),
 * line, regexp, search_string, state present|absent, insertafter (EOF|regex), insertbefore
 * (BOF|regex), create, backrefs, firstmatch, backup, mode, owner, group. The file is read,
 * {@link LineInFilePlan} computes the new content, and it is written atomically (through links,
 * keeping the file's mode, owner and group unless told otherwise). Check mode writes nothing;
 * diff mode shows a unified diff.
 */
public final class LineInFileModule implements Module {
    @Override
    public String name() {
        return "lineinfile";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("path", ArgSpec.Type.STR).alias("dest", "path").alias("destfile", "path").alias("name", "path")
                .opt("line", ArgSpec.Type.STR).alias("value", "line")
                .opt("regexp", ArgSpec.Type.STR).alias("regex", "regexp")
                .opt("search_string", ArgSpec.Type.STR)
                .opt("state", ArgSpec.Type.STR)
                .opt("insertafter", ArgSpec.Type.STR)
                .opt("insertbefore", ArgSpec.Type.STR)
                .opt("create", ArgSpec.Type.BOOL)
                .opt("backrefs", ArgSpec.Type.BOOL)
                .opt("firstmatch", ArgSpec.Type.BOOL)
                .opt("backup", ArgSpec.Type.BOOL)
                .fileAttributes();
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        Map<String, Object> raw = new LinkedHashMap<>(Aliases.apply(ctx.args(), Map.of("value", "line")));
        if (raw.get("path") != null) raw.put("path", ArgvExpand.path(ctx, raw.get("path").toString()));
        LineInFileArgs a = LineInFileArgs.from(raw);
        FileAttrs want = FileAttrs.from(ctx);
        FileStat st = HostFiles.stat(ctx, a.path(), true, false);
        if (st.exists() && !st.isFile()) {
            return ModuleResult.failed("Destination " + a.path() + " is a " + st.type() + ", not a regular file");
        }
        String path = st.exists() ? st.realPath() : a.path();
        want = want.withMode(FileMode.resolve(want.mode(), st.exists() ? st.mode() : st.createMode(false), false, st.umaskBits()));
        String current = st.exists() ? RemoteFile.read(ctx, path).orElse(null) : null;
        LineInFilePlan plan = LineInFilePlan.plan(current, a);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("path", a.path());
        if (!a.present()) data.put("found", plan.found());
        List<String> changes = new ArrayList<>();
        if (plan.changed()) changes.add(plan.msg());
        String diff = ctx.diff() && plan.changed()
                ? UnifiedDiff.diff(current == null ? "" : current, plan.content(), "before: " + a.path(), "after: " + a.path())
                : null;
        AttrPlan attrs = st.exists() ? AttrPlan.of(path, st, want, false) : null;
        if (attrs != null && !attrs.empty()) changes.addAll(attrs.changes());
        if (!plan.changed() && (attrs == null || attrs.empty())) {
            return ModuleResult.ok(plan.msg()).withData(data);
        }
        String msg = String.join(", ", changes);
        if (ctx.check()) {
            data.put("msg", msg); // registered as Ansible's; the console says what would happen
            return ModuleResult.changed("would edit " + a.path() + ": " + msg).withData(data).withDiff(diff);
        }
        if (plan.changed()) {
            if (ctx.bool("backup", false) && st.exists()) data.put("backup_file", HostFiles.backup(ctx, path));
            String mode = want.mode() != null ? want.mode() : st.exists() ? st.mode() : st.createMode(false);
            RemoteFile.writeAtomic(ctx, path, plan.content(), mode);
            FileStat after = HostFiles.stat(ctx, path, true, false);
            FileAttrs keep = new FileAttrs(mode, want.owner() != null ? want.owner() : st.exists() ? st.uid() : null,
                    want.group() != null ? want.group() : st.exists() ? st.gid() : null);
            HostFiles.runAll(ctx, AttrPlan.of(path, after, keep, false).commands());
        } else {
            HostFiles.runAll(ctx, attrs.commands());
        }
        return ModuleResult.changed(msg).withData(data).withDiff(diff);
    }
}
