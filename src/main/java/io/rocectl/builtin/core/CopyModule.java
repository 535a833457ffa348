package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.Would;
import io.rocectl.module.SearchPath;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code copy}: puts {@code content} or the control node's file {@code src} at {@code dest} on
 * the host. Arguments: src, content, dest, mode, owner, group, force (default true), backup.
 * Idempotent by content digest (sha256 on the host) and attributes; written atomically; a
 * {@code dest} ending in {@code /} receives {@code src}'s file name. A relative src is looked up
 * along the task's {@link SearchPath} ({@code files/} under, then in, the role's directory, the
 * task file's, the {@code playbook_dir}; else the working directory).
 * Check mode writes nothing; diff mode shows a unified diff for text files.
 * Directories as src and {@code remote_src} are not supported.
 */
public final class CopyModule implements Module {
    private static final int DIFF_LIMIT = 1 << 20;

    /** Ansible's {@code file} and {@code copy} return no {@code msg} when they succeed. */
    @Override
    public boolean registersMessage() {
        return false;
    }

    @Override
    public String name() {
        return "copy";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("dest", ArgSpec.Type.STR)
                .opt("src", ArgSpec.Type.STR)
                .opt("content", ArgSpec.Type.ANY)
                .fileAttributes()
                .opt("force", ArgSpec.Type.BOOL).alias("thirsty", "force")
                .opt("backup", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String dest = ArgvExpand.path(ctx, ctx.str("dest"));
        if (ctx.has("src") == ctx.has("content")) {
            throw new ModuleException("exactly one of src and content is required");
        }
        byte[] content;
        if (ctx.has("content")) {
            content = ctx.str("content").getBytes(StandardCharsets.UTF_8);
        } else {
            // along the task's search path (a role's files/ first), else as before
            Path src = SearchPath.find(ctx.vars(), "files", ctx.str("src"));
            if (src == null) src = resolveSrc(ctx.str("src"), ctx.var("playbook_dir"));
            if (dest.endsWith("/")) dest = dest + src.getFileName();
            try {
                content = Files.readAllBytes(src);
            } catch (IOException e) {
                throw new ModuleException("cannot read src " + src + ": " + e.getMessage());
            }
        }
        FileAttrs want = FileAttrs.from(ctx);
        FileStat cur = HostFiles.stat(ctx, dest, true, true);
        want = want.withMode(FileMode.resolve(want.mode(), cur.isFile() ? cur.mode() : cur.createMode(false), false, cur.umaskBits()));
        String sha = sha256(content);
        CopyPlan plan = CopyPlan.plan(dest, cur, sha, want, ctx.bool("force", true));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("dest", dest);
        data.put("checksum", digest("SHA-1", content)); // Ansible registers the content's sha1
        data.put("size", content.length);
        if (plan.failure() != null) return ModuleResult.failed(plan.failure()).withData(data);
        if (!plan.changed()) return ModuleResult.ok(plan.reason()).withData(data);
        String path = cur.exists() ? cur.realPath() : dest;
        String diff = null;
        if (ctx.diff() && plan.write()) {
            String before = cur.exists() && cur.isFile() ? RemoteFile.read(ctx, path).orElse("") : "";
            diff = isText(content) && isText(before.getBytes(StandardCharsets.UTF_8))
                    ? UnifiedDiff.diff(before, new String(content, StandardCharsets.UTF_8), "before: " + dest, "after: " + dest)
                    : "Binary files differ: " + dest + "\n";
        }
        if (ctx.check()) {
            String would = plan.write() && cur.exists() ? "would write " + dest + " (" + plan.reason() + ")" : Would.say(plan.reason());
            return ModuleResult.changed(would).withData(data).withDiff(diff);
        }
        if (plan.write()) {
            if (ctx.bool("backup", false) && cur.exists()) data.put("backup_file", HostFiles.backup(ctx, path));
            HostFiles.writeAtomic(ctx, path, content, plan.mode());
            FileStat after = HostFiles.stat(ctx, path, true, false);
            FileAttrs keep = new FileAttrs(plan.mode(), want.owner() != null ? want.owner() : cur.exists() ? cur.uid() : null,
                    want.group() != null ? want.group() : cur.exists() ? cur.gid() : null);
            HostFiles.runAll(ctx, AttrPlan.of(path, after, keep, false).commands());
        } else {
            HostFiles.runAll(ctx, plan.attrs().commands());
        }
        return ModuleResult.changed(plan.reason()).withData(data).withDiff(diff);
    }

    static Path resolveSrc(String src, Object playbookDir) {
        Path p = Path.of(src);
        if (p.isAbsolute()) return p;
        if (playbookDir != null) {
            Path base = Path.of(playbookDir.toString());
            for (Path c : List.of(base.resolve("files").resolve(src), base.resolve(src))) {
                if (Files.exists(c)) return c;
            }
            return base.resolve(src);
        }
        return p.toAbsolutePath();
    }

    /** The hex digest of {@code b} with {@code algorithm} (a JDK standard name). */
    static String digest(String algorithm, byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " missing from the JDK", e);
        }
    }

    static String sha256(byte[] b) {
        return digest("SHA-256", b);
    }

    private static boolean isText(byte[] b) {
        if (b.length > DIFF_LIMIT) return false;
        for (byte x : b) if (x == 0) return false;
        return true;
    }
}
