package io.rocectl.op;

/**
 * A file rocectl wants on a host: content (null = the file must not exist) or, for a symlink,
 * its target.
 */
public record FileChange(String path, String content, String mode, String linkTarget) {
    public static FileChange write(String path, String content, String mode) {
        return new FileChange(path, content, mode, null);
    }

    public static FileChange delete(String path) {
        return new FileChange(path, null, null, null);
    }

    public static FileChange link(String path, String target) {
        return new FileChange(path, null, null, target);
    }

    public static FileChange unlink(String path) {
        return new FileChange(path, null, null, "");
    }

    public boolean isLink() {
        return linkTarget != null;
    }
}
