package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.ModuleException;
import io.rocectl.module.Values;
import io.rocectl.text.Shlex;
import io.rocectl.transport.Cmd;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a {@code command} or {@code shell} task asks for, parsed from its arguments (pure).
 * As in Ansible, {@code chdir=}, {@code creates=}, {@code removes=}, {@code executable=},
 * {@code stdin=} and {@code stdin_add_newline=} written inside the free-form string are taken
 * out of it as options.
 *
 * @param argv       the words to execute ({@code command}), or null
 * @param script     the script for {@code sh -c} ({@code shell}), or null
 * @param chdir      directory to run in, or null
 * @param creates    a path (glob) whose existence means "already done", or null
 * @param removes    a path (glob) whose absence means "already done", or null
 * @param stdin      data fed to the command, or null
 * @param executable the shell for {@code shell} (default {@code /bin/sh})
 */
public record CommandRequest(List<String> argv, String script, String chdir, String creates,
                             String removes, String stdin, String executable) {

    private static final Set<String> INLINE = Set.of("chdir", "creates", "removes", "executable",
            "stdin", "stdin_add_newline", "strip_empty_ends");

    public static CommandRequest from(Map<String, Object> rawArgs, boolean shell) {
        Map<String, Object> args = new LinkedHashMap<>(rawArgs);
        String raw = args.get(ArgSpec.RAW) == null ? null : args.get(ArgSpec.RAW).toString();
        if (raw != null) raw = extractInline(raw, args);
        Object cmdArg = args.get("cmd");
        Object argvArg = shell ? null : args.get("argv");
        int given = (raw != null && !raw.isBlank() ? 1 : 0) + (cmdArg != null ? 1 : 0) + (argvArg != null ? 1 : 0);
        if (given == 0) throw new ModuleException("no command given");
        if (given > 1) throw new ModuleException("only one of the free-form command, 'cmd' and 'argv' may be given");
        String text = raw != null && !raw.isBlank() ? raw : cmdArg != null ? cmdArg.toString() : null;
        List<String> argv = null;
        String script = null;
        if (shell) {
            script = text;
        } else if (text != null) {
            argv = argv(text);
        } else {
            if (!(argvArg instanceof List<?> l)) throw new ModuleException("'argv' must be a list");
            argv = new java.util.ArrayList<>();
            for (Object o : l) argv.add(o == null ? "" : o.toString()); // kept verbatim: no trimming

        }
        if (argv != null && argv.isEmpty()) throw new ModuleException("no command given");
        String stdin = str(args, "stdin");
        if (stdin != null && Values.toBool(args.get("stdin_add_newline"), true, "stdin_add_newline")
                && !stdin.endsWith("\n")) {
            stdin = stdin + "\n";
        }
        String exe = shell ? str(args, "executable") : null;
        return new CommandRequest(argv, script, str(args, "chdir"), str(args, "creates"),
                str(args, "removes"), stdin, shell ? (exe == null ? "/bin/sh" : exe) : null);
    }

    private static String str(Map<String, Object> args, String k) {
        Object v = args.get(k);
        if (v == null) return null;
        String s = v.toString();
        return s.isEmpty() ? null : s;
    }

    /** The free form's argv, split as Python's {@code shlex.split} does (Ansible's command module). */
    static List<String> argv(String text) {
        try {
            return Shlex.split(text);
        } catch (Shlex.SplitException e) {
            throw new ModuleException((e.unclosedQuote() ? "No closing quotation in: " : "No escaped character in: ") + text);
        }
    }

    /** Removes unquoted {@code key=value} words for known options from the free form into args. */
    static String extractInline(String raw, Map<String, Object> args) {
        StringBuilder kept = new StringBuilder();
        int pos = 0;
        List<Shlex.Word> words;
        try {
            words = Shlex.words(raw, false);
        } catch (Shlex.SplitException e) {
            return raw; // an unbalanced quote is the shell's business (shell) or fails later (command)
        }
        for (Shlex.Word w : words) {
            int eq = raw.indexOf('=', w.start());
            String key = eq > w.start() && eq < w.end() ? raw.substring(w.start(), eq) : null;
            if (key != null && INLINE.contains(key)) {
                kept.append(raw, pos, w.start());
                pos = w.end();
                args.put(key, w.value().substring(key.length() + 1));
            }
        }
        kept.append(raw, pos, raw.length());
        return kept.toString().strip();
    }

    /** The command to run: values are positional parameters of a fixed wrapper script. */
    public Cmd toCmd() {
        Cmd c;
        if (script != null) {
            c = Cmd.script("if [ -n \"$1\" ]; then cd -- \"$1\" || exit 1; fi; exec \"$2\" -c \"$3\"",
                    chdir == null ? "" : chdir, executable, script);
        } else if (chdir != null) {
            c = Cmd.script("cd -- \"$1\" || exit 1; shift; " + EXEC, concat(chdir, argv));
        } else {
            c = Cmd.script(EXEC, argv);
        }
        return stdin == null ? c : c.withStdin(stdin);
    }

    /** This request with other chdir, creates and removes (the same command). */
    public CommandRequest withPaths(String chdir, String creates, String removes) {
        return new CommandRequest(argv, script, chdir, creates, removes, stdin, executable);
    }

    /** This request with other words to run (the same options). */
    public CommandRequest withArgv(List<String> words) {
        return new CommandRequest(List.copyOf(words), script, chdir, creates, removes, stdin, executable);
    }

    /** What {@link #EXEC} prints on stderr, followed by the errno, when the program cannot be started. */
    static final String NOT_STARTED = "rocectl-exec-errno:";

    /**
     * Runs "$@"; a program that cannot be started is reported as Python's errno (what Ansible's
     * command module registers as rc): 2 when it is not found, 13 when it is not executable.
     */
    static final String EXEC = "case $1 in */*) if [ ! -e \"$1\" ]; then e=2; elif [ -d \"$1\" ] || [ ! -x \"$1\" ]; "
            + "then e=13; else e=0; fi;; *) if command -v -- \"$1\" >/dev/null 2>&1; then e=0; else e=2; fi;; esac; "
            + "if [ \"$e\" != 0 ]; then printf '" + NOT_STARTED + "%s' \"$e\" >&2; exit 127; fi; exec \"$@\"";

    private static List<String> concat(String first, List<String> rest) {
        List<String> l = new java.util.ArrayList<>();
        l.add(first);
        l.addAll(rest);
        return l;
    }

    /** The registered {@code cmd}: the argv list for command, the script for shell. */
    public Object display() {
        return script != null ? script : argv;
    }

    /**
     * Why the command need not run, or null when it must.
     *
     * @param createsExists whether the {@code creates} glob matched (ignored when not given)
     * @param removesExists whether the {@code removes} glob matched (ignored when not given)
     */
    public String skipReason(boolean createsExists, boolean removesExists) {
        if (creates != null && createsExists) return "Did not run command since '" + creates + "' exists";
        if (removes != null && !removesExists) return "Did not run command since '" + removes + "' does not exist";
        return null;
    }
}
