package io.rocectl.builtin.core;

import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The write half shared by the modules that edit a text file ({@code blockinfile},
 * {@code replace}): new content written atomically through links (keeping the file's mode, owner
 * and group unless told otherwise), then the wanted attributes; check mode writes nothing, diff
 * mode shows a unified diff, {@code backup} keeps a copy first.
 */
final class FileEdit {
    private FileEdit() {}

    /**
     * @param st      the path's stat (following links)
     * @param current its content, or null when absent
     * @param wanted  the new content, or null when the content stays
     * @param msg     what changed in the content ("" when nothing)
     */
    static ModuleResult apply(TaskContext ctx, String path, FileStat st, String current, String wanted, String msg,
                              Map<String, Object> data)
            throws TransportException, CommandTimeoutException, InterruptedException {
        FileAttrs want = FileAttrs.from(ctx);
        String real = st.exists() ? st.realPath() : path;
        String diff = ctx.diff() && wanted != null
                ? UnifiedDiff.diff(current == null ? "" : current, wanted, "before: " + path, "after: " + path) : null;
        AttrPlan attrs = st.exists() ? AttrPlan.of(real, st, want.withMode(FileMode.resolve(want.mode(), st.mode(), false, st.umaskBits())), false) : null;
        String fresh = st.exists() ? null : st.createMode(false);
        List<String> changes = new ArrayList<>();
        if (wanted != null && !msg.isEmpty()) changes.add(msg);
        boolean created = !st.exists() && wanted != null
                && (want.mode() != null && !fresh.equals(FileMode.resolve(want.mode(), fresh, false, st.umaskBits()))
                || want.owner() != null || want.group() != null);
        if (created && !ctx.check() || attrs != null && !attrs.empty()) changes.add(msg.isEmpty() || wanted == null ? "ownership, perms or SE linux context changed"
                : "and ownership, perms or SE linux context changed");
        if (wanted == null && (attrs == null || attrs.empty())) {
            data.put("msg", msg); // registered even when empty, as Ansible does
            return ModuleResult.ok(msg).withData(data);
        }
        String m = String.join(" ", changes);
        if (ctx.check()) {
            data.put("msg", m); // registered as Ansible's; the console says what would happen
            return ModuleResult.changed("would edit " + path + ": " + m).withData(data).withDiff(diff);
        }
        if (wanted != null) {
            if (ctx.bool("backup", false) && st.exists()) data.put("backup_file", HostFiles.backup(ctx, real));
            String mode = FileMode.resolve(want.mode(), st.exists() ? st.mode() : fresh, false, st.umaskBits());
            if (mode == null) mode = st.exists() ? st.mode() : fresh;
            RemoteFile.writeAtomic(ctx, real, wanted, mode);
            FileStat after = HostFiles.stat(ctx, real, true, false);
            FileAttrs keep = new FileAttrs(mode, want.owner() != null ? want.owner() : st.exists() ? st.uid() : null,
                    want.group() != null ? want.group() : st.exists() ? st.gid() : null);
            HostFiles.runAll(ctx, AttrPlan.of(real, after, keep, false).commands());
        } else {
            HostFiles.runAll(ctx, attrs.commands());
        }
        return ModuleResult.changed(m).withData(data).withDiff(diff);
    }
}
