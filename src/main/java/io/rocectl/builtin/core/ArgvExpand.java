package io.rocectl.builtin.core;

import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Ansible's {@code command} does to each argv word before it runs it, and its modules to
 * every {@code type='path'} argument:
 * {@code os.path.expanduser(os.path.expandvars(word))} with the host's environment. Unset
 * variables stay as written; {@code ~user} of an unknown user stays as written. The values come
 * from the host and the result is still one argv word each: nothing is ever read by a shell.
 */
public final class ArgvExpand {
    /** Python's posixpath._varprog with re.ASCII: {@code $name} or {@code ${anything}}. */
    private static final Pattern VAR = Pattern.compile("\\$([A-Za-z0-9_]+|\\{[^}]*})");

    /**
     * $@ user names ("" = the current user): prints each one's home directory (empty when
     * unknown), NUL-terminated, then the environment ({@code env -0}).
     */
    private static final String HOST_ENV = "for u in \"$@\"; do if [ -z \"$u\" ]; then u=$(id -u); fi; "
            + "h=$(getent passwd -- \"$u\" 2>/dev/null | cut -d: -f6); printf '%s\\0' \"$h\"; done; env -0";

    private ArgvExpand() {}

    /**
     * The words expanded with the host's environment and home directories (one round trip, two
     * when a word names a user's home); words that cannot change are returned without asking.
     */
    public static List<String> onHost(TaskContext ctx, List<String> words)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (!needed(words)) return words;
        Map<String, String> env = hostEnv(ctx, List.of()).env();
        List<String> users = new ArrayList<>(users(words, env));
        Map<String, String> homes = users.isEmpty() ? Map.of() : hostEnv(ctx, users).homes();
        return expand(words, env, homes::get);
    }

    /**
     * A path argument as Ansible's {@code type='path'} reads it on the host:
     * {@code os.path.expanduser(os.path.expandvars(path))}; null stays null.
     */
    public static String path(TaskContext ctx, String path)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (path == null) return null;
        return onHost(ctx, List.of(path)).get(0);
    }

    private record HostEnv(Map<String, String> env, Map<String, String> homes) {}

    private static HostEnv hostEnv(TaskContext ctx, List<String> users)
            throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = ctx.runOk(Cmd.script(HOST_ENV, users));
        String[] f = r.stdout().split("\0", -1);
        Map<String, String> homes = new LinkedHashMap<>();
        for (int i = 0; i < users.size() && i < f.length; i++) if (!f[i].isEmpty()) homes.put(users.get(i), f[i]);
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = users.size(); i < f.length; i++) {
            int eq = f[i].indexOf('=');
            if (eq > 0) env.put(f[i].substring(0, eq), f[i].substring(eq + 1));
        }
        return new HostEnv(env, homes);
    }

    /** Whether a word could change (so the host's environment is needed at all). */
    public static boolean needed(List<String> argv) {
        for (String w : argv) if (w.contains("$") || w.startsWith("~")) return true;
        return false;
    }

    /** The user names {@code ~name} words refer to once variables are expanded ("" is the current user). */
    public static Set<String> users(List<String> argv, Map<String, String> env) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : argv) {
            String s = expandVars(w, env);
            if (s.startsWith("~")) out.add(userOf(s));
        }
        return out;
    }

    /**
     * @param env   the host's environment
     * @param homes home directory by user name ("" = the current user), null when unknown
     */
    public static List<String> expand(List<String> argv, Map<String, String> env, Function<String, String> homes) {
        List<String> out = new ArrayList<>(argv.size());
        for (String w : argv) out.add(expandUser(expandVars(w, env), env, homes));
        return out;
    }

    static String expandVars(String s, Map<String, String> env) {
        if (!s.contains("$")) return s;
        StringBuilder sb = new StringBuilder();
        Matcher m = VAR.matcher(s);
        int pos = 0;
        while (m.find()) {
            String name = m.group(1);
            if (name.startsWith("{") && name.endsWith("}")) name = name.substring(1, name.length() - 1);
            String v = env.get(name);
            if (v == null) continue;
            sb.append(s, pos, m.start()).append(v);
            pos = m.end();
        }
        return sb.append(s, pos, s.length()).toString();
    }

    private static String userOf(String s) {
        int i = s.indexOf('/', 1);
        return s.substring(1, i < 0 ? s.length() : i);
    }

    static String expandUser(String s, Map<String, String> env, Function<String, String> homes) {
        if (!s.startsWith("~")) return s;
        int i = s.indexOf('/', 1);
        if (i < 0) i = s.length();
        String home;
        if (i == 1) home = env.containsKey("HOME") ? env.get("HOME") : homes.apply("");
        else home = homes.apply(s.substring(1, i));
        if (home == null) return s;
        while (home.endsWith("/")) home = home.substring(0, home.length() - 1);
        String r = home + s.substring(i);
        return r.isEmpty() ? "/" : r;
    }
}
