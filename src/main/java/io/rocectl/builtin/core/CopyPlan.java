package io.rocectl.builtin.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The pure half of {@code copy}: whether the content must be written and which attributes
 * must change, from the destination's stat (with its sha256) and the wanted content's digest.
 *
 * @param write    the content must be (re)written
 * @param attrs    owner/group/mode changes on an existing file (empty when writing: the write
 *                 sets the mode, and ownership is fixed after it)
 * @param mode     the mode to write with: wanted, else the existing file's, else 0666 less the umask
 * @param reason   one line: what changes, or why nothing does
 * @param failure  a reason the task must fail, or null
 */
public record CopyPlan(boolean write, AttrPlan attrs, String mode, String reason, String failure) {

    public boolean changed() { return failure == null && (write || !attrs.empty()); }

    /**
     * @param force replace a file whose content differs (Ansible's {@code force}); when false, an
     *              existing file is left alone
     */
    public static CopyPlan plan(String dest, FileStat cur, String wantSha256, FileAttrs want, boolean force) {
        AttrPlan none = new AttrPlan(List.of(), List.of());
        if (cur.exists() && !cur.isFile()) {
            return new CopyPlan(false, none, null, null, "Destination " + dest + " is a " + cur.type() + ", not a regular file");
        }
        if (!cur.exists()) {
            String mode = want.mode() != null ? want.mode() : cur.createMode(false);
            return new CopyPlan(true, none, mode, "created " + dest, null);
        }
        boolean differs = !wantSha256.equals(cur.sha256());
        if (differs && !force) {
            return new CopyPlan(false, none, cur.mode(), "destination exists and force=false: left alone", null);
        }
        AttrPlan attrs = AttrPlan.of(cur.realPath(), cur, want, false);
        if (differs) {
            String mode = want.mode() != null ? want.mode() : cur.mode();
            List<String> why = new ArrayList<>();
            why.add("content changed");
            why.addAll(attrs.changes());
            return new CopyPlan(true, none, mode, String.join(", ", why), null);
        }
        if (attrs.empty()) return new CopyPlan(false, attrs, cur.mode(), "content and attributes already as wanted", null);
        return new CopyPlan(false, attrs, cur.mode(), String.join(", ", attrs.changes()), null);
    }
}
