package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.ShellQuote;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code command}: runs a program with arguments, without a shell (no pipes, redirections,
 * variables or globs). Free form ({@code command: ls -l /tmp}, split like Python's shlex),
 * {@code cmd} or {@code argv}; {@code chdir}, {@code creates}, {@code removes}, {@code stdin},
 * {@code stdin_add_newline}, {@code strip_empty_ends}. Always changed when it runs; failed when
 * rc != 0. In check mode it does not run (result {@code skipped}) unless {@code creates} or
 * {@code removes} decide it would not run anyway. Registers rc, stdout, stderr, stdout_lines,
 * stderr_lines, cmd, start, end, delta.
 */
public class CommandModule implements Module {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final String EXISTS = "IFS=; for f in $1; do [ -e \"$f\" ] && exit 0; done; exit 1";

    private final boolean shell;

    public CommandModule() {
        this(false);
    }

    protected CommandModule(boolean shell) {
        this.shell = shell;
    }

    @Override
    public String name() {
        return shell ? "shell" : "command";
    }

    @Override
    public ArgSpec args() {
        ArgSpec a = ArgSpec.builder().freeForm()
                .opt("cmd", ArgSpec.Type.STR)
                .opt("chdir", ArgSpec.Type.STR)
                .opt("creates", ArgSpec.Type.STR)
                .opt("removes", ArgSpec.Type.STR)
                .opt("stdin", ArgSpec.Type.STR)
                .opt("stdin_add_newline", ArgSpec.Type.BOOL)
                .opt("strip_empty_ends", ArgSpec.Type.BOOL);
        if (shell) a.opt("executable", ArgSpec.Type.STR);
        else a.opt("argv", ArgSpec.Type.LIST);
        return a;
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        CommandRequest req = CommandRequest.from(ctx.args(), shell);
        req = req.withPaths(ArgvExpand.path(ctx, req.chdir()), ArgvExpand.path(ctx, req.creates()),
                ArgvExpand.path(ctx, req.removes())); // type='path' in Ansible: ~ and $VAR expanded on the host
        boolean createsExists = req.creates() != null && exists(ctx, req.creates(), req.chdir());
        boolean removesExists = req.removes() != null && exists(ctx, req.removes(), req.chdir());
        String skip = req.skipReason(createsExists, removesExists);
        if (skip != null && ctx.check()) skip = "Would" + skip.substring("Did".length());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("cmd", req.display());
        if (skip != null) {
            data.put("rc", 0);
            // as ansible-core 2.14: msg says why, stdout the older "skipped, since X exists"
            String out = createsExists ? "skipped, since " + req.creates() + " exists"
                    : "skipped, since " + req.removes() + " does not exist";
            data.put("stdout", out);
            data.put("stdout_lines", TaskContext.lines(out));
            data.put("stderr", "");
            data.put("stderr_lines", java.util.List.of());
            return ModuleResult.ok(skip).withData(data);
        }
        if (ctx.check()) {
            // Ansible's result of a command not run: rc None, empty output
            data.put("rc", null);
            data.put("stdout", "");
            data.put("stdout_lines", java.util.List.of());
            data.put("stderr", "");
            data.put("stderr_lines", java.util.List.of());
            if (req.creates() == null && req.removes() == null) {
                data.put("skipped", true);
                return ModuleResult.ok("Command would have run if not in check mode").withData(data);
            }
            return ModuleResult.changed("Command would have run if not in check mode").withData(data);
        }
        boolean strip = ctx.bool("strip_empty_ends", true);
        LocalDateTime start = LocalDateTime.now();
        long t0 = System.nanoTime();
        CommandRequest run = req.argv() != null && ArgvExpand.needed(req.argv()) ? expanded(ctx, req) : req;
        ExecResult r = ctx.run(run.toCmd());
        long nanos = System.nanoTime() - t0;
        if (r.exitCode() == 127 && r.stderr().startsWith(CommandRequest.NOT_STARTED)) {
            // as Python's subprocess: the program never started; rc is the errno, nothing was changed
            int errno = Integer.parseInt(r.stderr().substring(CommandRequest.NOT_STARTED.length()).strip());
            data.put("cmd", ShellQuote.join(run.argv()));
            data.put("rc", errno);
            data.put("stdout", "");
            data.put("stderr", "");
            data.put("stdout_lines", java.util.List.of());
            data.put("stderr_lines", java.util.List.of());
            String why = errno == 2 ? "No such file or directory" : "Permission denied";
            return ModuleResult.failed("[Errno " + errno + "] " + why + ": " + pyBytes(run.argv().get(0))).withData(data);
        }
        String out = strip ? stripEnds(r.stdout()) : r.stdout();
        String err = strip ? stripEnds(r.stderr()) : r.stderr();
        data.put("rc", r.exitCode());
        data.put("stdout", out);
        data.put("stderr", err);
        data.put("stdout_lines", TaskContext.lines(out));
        data.put("stderr_lines", TaskContext.lines(err));
        data.put("start", start.format(TS));
        data.put("end", start.plusNanos(nanos).format(TS));
        data.put("delta", delta(Duration.ofNanos(nanos)));
        boolean failed = r.exitCode() != 0;
        data.put("msg", failed ? "non-zero return code" : ""); // Ansible's command returns msg "" when it succeeds
        return new ModuleResult(true, failed, failed ? "non-zero return code" : "", data, null, null);
    }

    /** The request with each word expanded as Ansible does, from the host's environment. */
    private static CommandRequest expanded(TaskContext ctx, CommandRequest req)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return req.withArgv(ArgvExpand.onHost(ctx, req.argv()));
    }

    /** Python's repr of a word as bytes: {@code b'prog'}. */
    static String pyBytes(String s) {
        boolean dq = s.contains("'") && !s.contains("\"");
        StringBuilder sb = new StringBuilder(dq ? "b\"" : "b'");
        for (byte x : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c == '\\') sb.append("\\\\");
            else if (c == '\'' && !dq) sb.append("\\'");
            else if (c == '\n') sb.append("\\n");
            else if (c == '\t') sb.append("\\t");
            else if (c == '\r') sb.append("\\r");
            else if (c < 0x20 || c >= 0x7f) sb.append(String.format("\\x%02x", c));
            else sb.append((char) c);
        }
        return sb.append(dq ? '"' : '\'').toString();
    }

    private static boolean exists(TaskContext ctx, String glob, String chdir)
            throws TransportException, CommandTimeoutException, InterruptedException {
        String script = chdir == null ? EXISTS : "cd -- \"$2\" || exit 1; " + EXISTS;
        Cmd c = chdir == null ? Cmd.script(script, glob) : Cmd.script(script, glob, chdir);
        return ctx.run(c).ok();
    }

    static String stripEnds(String s) {
        int e = s.length();
        while (e > 0 && (s.charAt(e - 1) == '\n' || s.charAt(e - 1) == '\r')) e--;
        return s.substring(0, e);
    }

    /** Python timedelta style: {@code 0:00:01.234567}. */
    static String delta(Duration d) {
        long micros = d.toNanos() / 1000;
        long secs = micros / 1_000_000;
        return String.format("%d:%02d:%02d.%06d", secs / 3600, (secs / 60) % 60, secs % 60, micros % 1_000_000);
    }
}
