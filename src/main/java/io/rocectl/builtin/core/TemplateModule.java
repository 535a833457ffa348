package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.SearchPath;
import io.rocectl.module.TaskContext;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code template}: renders the control node's Jinja file {@code src} with the host's variables
 * (the project's template engine, Ansible's semantics, {@code trim_blocks} on) and puts the text at
 * {@code dest} exactly as {@code copy} does with {@code content}: idempotent by digest, written
 * atomically, mode/owner/group, backup, check and diff modes. A relative src is looked up in the
 * directories {@link #searchDirs} lists. Not supported: {@code trim_blocks: false},
 * {@code lstrip_blocks}, {@code validate}, other delimiters ({@code ansible_managed} and the
 * {@code template_*} variables are not set).
 */
public final class TemplateModule implements Module {
    private final CopyModule copy = new CopyModule();

    @Override
    public String name() {
        return "template";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("src", ArgSpec.Type.STR)
                .req("dest", ArgSpec.Type.STR)
                .fileAttributes()
                .opt("force", ArgSpec.Type.BOOL)
                .opt("backup", ArgSpec.Type.BOOL)
                .opt("trim_blocks", ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        if (!ctx.bool("trim_blocks", true)) throw new ModuleException("trim_blocks: false is not supported by rocectl");
        String src = ctx.str("src");
        Path file = find(src, searchDirs(ctx.vars()));
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ModuleException("cannot read template " + file + ": " + e.getMessage());
        }
        String rendered;
        try {
            rendered = Templar.get().renderText(text, ctx.vars());
        } catch (TemplateException e) {
            // the template file and line, not its text
            throw new ModuleException("AnsibleError: " + file + (e.line() > 0 ? ":" + e.line() : "") + ": " + e.detail());
        }
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("content", rendered);
        args.put("dest", ctx.str("dest"));
        for (String k : List.of("mode", "owner", "group", "force", "backup")) if (ctx.has(k)) args.put(k, ctx.args().get(k));
        TaskContext c = new TaskContext(ctx.host(), ctx.connection(), args, ctx.vars(), ctx.check(), ctx.diff(),
                ctx.become(), ctx.commandTimeout(), ctx.reconnect());
        ModuleResult r = copy.run(c);
        Map<String, Object> data = new LinkedHashMap<>(r.data());
        data.put("src", file.toString());
        // Ansible's template result has no msg (copy's reason is for failures only)
        return new ModuleResult(r.changed(), r.failed(), r.failed() ? r.msg() : "", data, r.diff(), r.facts());
    }

    /**
     * Where a relative {@code src} is looked for, in order: the role's {@code templates/} and
     * directory ({@code role_path}), then the playbook's ({@code playbook_dir}), then the working
     * directory's {@code templates/} and itself. The one place to extend the search.
     */
    public static List<Path> searchDirs(Map<String, Object> vars) {
        List<Path> dirs = new ArrayList<>();
        // the task's search path: the role's directory, the task file's, the playbook's
        for (Path d : SearchPath.dirs(vars)) {
            dirs.add(d.resolve("templates"));
            dirs.add(d);
        }
        dirs.add(Path.of("templates"));
        dirs.add(Path.of(""));
        return dirs;
    }

    static Path find(String src, List<Path> dirs) {
        Path p = Path.of(src);
        if (p.isAbsolute()) {
            if (Files.isRegularFile(p)) return p;
        } else {
            for (Path d : dirs) {
                Path c = d.resolve(src);
                if (Files.isRegularFile(c)) return c.toAbsolutePath();
            }
        }
        throw new ModuleException("Could not find or access '" + src + "'");
    }
}
