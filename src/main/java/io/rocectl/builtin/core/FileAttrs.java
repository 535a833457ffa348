package io.rocectl.builtin.core;

import io.rocectl.module.TaskContext;

/**
 * Wanted ownership and permissions of a path; a null field means "leave as it is".
 *
 * @param mode  four octal digits, or null
 * @param owner user name or numeric uid, or null
 * @param group group name or numeric gid, or null
 */
public record FileAttrs(String mode, String owner, String group) {

    public static FileAttrs from(TaskContext ctx) {
        String owner = ctx.has("owner") ? ctx.str("owner").trim() : null;
        String group = ctx.has("group") ? ctx.str("group").trim() : null;
        return new FileAttrs(FileMode.parse(ctx.args().get("mode")),
                owner == null || owner.isEmpty() ? null : owner,
                group == null || group.isEmpty() ? null : group);
    }

    public FileAttrs withMode(String m) {
        return new FileAttrs(m, owner, group);
    }
}
