package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.Would;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code file}: makes a path a regular file (which must exist), a directory (created with its
 * parents), absent (removed recursively), touched (created or its times updated: always
 * changed, as in Ansible), or a symbolic link to {@code src}; with owner, group and mode.
 * Arguments: path (dest, name), state, src, mode, owner, group, force, follow. Without state, an
 * existing path keeps its kind and a missing one means file. After changing, the path is read
 * back and planned again: a second plan that is not empty fails the task (state touch aside).
 * Not supported: recurse, hard links, access/modification times.
 */
public final class FileModule implements Module {
    /** Ansible's {@code file} and {@code copy} return no {@code msg} when they succeed. */
    @Override
    public boolean registersMessage() {
        return false;
    }

    @Override
    public String name() {
        return "file";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("path", ArgSpec.Type.STR).alias("dest", "path").alias("name", "path")
                .opt("state", ArgSpec.Type.STR)
                .opt("src", ArgSpec.Type.STR)
                .fileAttributes()
                .opt("force", ArgSpec.Type.BOOL)
                .opt("follow", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        Map<String, Object> args = Aliases.apply(ctx.args(), Map.of("dest", "path", "name", "path"));
        String path = args.get("path") == null ? "" : ArgvExpand.path(ctx, args.get("path").toString());
        FileAttrs want = FileAttrs.from(ctx);
        String state = args.get("state") == null ? null : args.get("state").toString();
        boolean follow = ctx.bool("follow", true);
        FileStat raw = HostFiles.stat(ctx, path, false, false);
        if (state == null) state = raw.isDirectory() ? "directory" : raw.isLink() && !follow ? "link" : "file";
        boolean noFollow = state.equals("link") || state.equals("absent") || !follow;
        FileStat cur = noFollow || !raw.isLink() ? raw : HostFiles.stat(ctx, path, true, false);
        String src = args.get("src") == null ? null : ArgvExpand.path(ctx, args.get("src").toString());
        boolean dir = cur.exists() ? cur.isDirectory() : state.equals("directory");
        want = want.withMode(FileMode.resolve(want.mode(), cur.exists() ? cur.mode() : cur.createMode(dir), dir, cur.umaskBits()));
        FilePlan plan = FilePlan.plan(path, cur, state, src, want, ctx.bool("force", false));
        if (plan.failure() != null) return ModuleResult.failed(plan.failure()).withData(describe(path, cur));
        if (!plan.changed()) return ModuleResult.ok(plan.reason()).withData(describe(path, cur));
        String diff = null;
        if (ctx.diff()) diff = UnifiedDiff.diff(summary(cur), summaryWanted(cur, state, src, want), "before: " + path, "after: " + path);
        if (ctx.check()) return ModuleResult.changed(Would.say(plan.reason())).withData(describe(path, cur)).withDiff(diff);
        HostFiles.runAll(ctx, plan.commands());
        FileStat after = HostFiles.stat(ctx, path, !noFollow, false);
        if (!state.equals("touch")) {
            FilePlan again = FilePlan.plan(path, after, state, src, want, ctx.bool("force", false));
            if (again.failure() != null || again.changed()) {
                return new ModuleResult(true, true, "path did not reach the wanted state: "
                        + (again.failure() != null ? again.failure() : again.reason()), describe(path, after), diff, null);
            }
        }
        return ModuleResult.changed(plan.reason()).withData(describe(path, after)).withDiff(diff);
    }

    private static Map<String, Object> describe(String path, FileStat st) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("path", path);
        d.put("state", st.isFile() ? "file" : st.exists() ? st.type() : "absent");
        if (st.exists()) {
            d.put("mode", st.mode());
            d.put("owner", st.owner());
            d.put("group", st.group());
            d.put("uid", st.uid());
            d.put("gid", st.gid());
        }
        if (st.target() != null) d.put("src", st.target());
        return d;
    }

    private static String summary(FileStat st) {
        StringBuilder sb = new StringBuilder("state: " + (st.exists() ? st.type() : "absent") + "\n");
        if (st.isLink()) sb.append("src: ").append(st.target()).append('\n');
        if (st.exists() && !st.isLink()) sb.append("mode: ").append(st.mode()).append('\n');
        if (st.exists()) sb.append("owner: ").append(st.owner()).append('\n').append("group: ").append(st.group()).append('\n');
        return sb.toString();
    }

    private static String summaryWanted(FileStat cur, String state, String src, FileAttrs want) {
        if (state.equals("absent")) return "state: absent\n";
        String type = state.equals("touch") ? (cur.exists() ? cur.type() : "file") : state;
        StringBuilder sb = new StringBuilder("state: " + type + "\n");
        if (type.equals("link")) sb.append("src: ").append(src).append('\n');
        String mode = want.mode() != null ? want.mode() : cur.exists() ? cur.mode() : null;
        if (mode != null && !type.equals("link")) sb.append("mode: ").append(mode).append('\n');
        String owner = want.owner() != null ? want.owner() : cur.owner();
        String group = want.group() != null ? want.group() : cur.group();
        if (owner != null) sb.append("owner: ").append(owner).append('\n');
        if (group != null) sb.append("group: ").append(group).append('\n');
        return sb.toString();
    }
}
