package io.rocectl.builtin.roce;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.op.SysctlFile;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sysctl} with ansible.posix.sysctl's arguments: {@code name}, {@code value},
 * {@code state} (present|absent), {@code sysctl_file} (default {@code /etc/sysctl.d/99-rocectl.conf}),
 * {@code reload} (default true), {@code sysctl_set}, {@code ignoreerrors}.
 * <p>With {@code reload: true} it sets the live value ({@code /proc/sys}) AND writes the file
 * atomically; it reports changed only when either differed. The live value goes first: a value
 * the kernel refuses fails the task and never reaches the file (and when the file cannot be
 * written, the old live value is put back). With {@code reload: false}
 * it ONLY writes the file: the running kernel keeps its old value until the next boot or
 * {@code sysctl --system}. That is the trap the seeds warn about (ARP settings written but not
 * live keep pairs broken); use {@code sysctl_set: true} to set the live value anyway.
 * {@code state: absent} removes the key from the file and leaves the live value alone.
 * <p>As ansible.posix.sysctl, a change with {@code reload: true} then loads the whole
 * {@code sysctl_file} ({@code sysctl -p FILE}, {@code -e} with {@code ignoreerrors}): the file's
 * other keys become live too, and a key there the kernel refuses fails the task
 * ({@code Failed to reload sysctl: ...}).
 */
public final class SysctlModule implements Module {
    public static final String DEFAULT_FILE = "/etc/sysctl.d/99-rocectl.conf";

    @Override
    public String name() { return "sysctl"; }

    /** ansible.posix.sysctl returns no msg. */
    @Override
    public boolean registersMessage() { return false; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().req("name", ArgSpec.Type.STR).opt("value", ArgSpec.Type.ANY)
                .opt("state", ArgSpec.Type.STR).opt("sysctl_file", ArgSpec.Type.STR).opt("reload", ArgSpec.Type.BOOL)
                .opt("sysctl_set", ArgSpec.Type.BOOL).opt("ignoreerrors", ArgSpec.Type.BOOL)
                .alias("key", "name").alias("val", "value");
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String name = ctx.str("name").strip();
        String state = ctx.str("state", "present");
        String file = ctx.str("sysctl_file", DEFAULT_FILE);
        if (!state.equals("present") && !state.equals("absent")) {
            return ModuleResult.failed("state must be present or absent, got '" + state + "'");
        }
        String path = SysctlFile.path(name);
        if (path.contains("..") || !path.matches("[A-Za-z0-9_./:@-]+")) return ModuleResult.failed("bad sysctl name '" + name + "'");
        String content = RemoteFile.read(ctx, file).orElse("");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", name);
        if (state.equals("absent")) {
            // as ansible.posix.sysctl: changed when the file has a (non-empty) value for it; the
            // file is then rewritten in its format (see posixLines)
            String had = fileValue(content, name);
            if (had == null || had.isEmpty()) return ModuleResult.ok(name + " not in " + file).withData(data);
            String next = posixLines(content, name, null);
            if (!ctx.check()) RemoteFile.writeAtomic(ctx, file, next, "0644");
            return ModuleResult.changed((ctx.check() ? "would remove " : "removed ") + name + " from " + file).withData(data).withDiff("- " + name);
        }
        if (!ctx.has("value")) return ModuleResult.failed("value is required with state=present");
        String value = SysctlFile.norm(stringValue(ctx.args().get("value")));
        boolean live = ctx.bool("reload", true) || ctx.bool("sysctl_set", false);
        // as ansible.posix.sysctl: the file changes when its (last) value for the key differs,
        // and is then rewritten in its format (see posixLines)
        boolean fileChange = !value.equals(fileValue(content, name));
        String next = fileChange ? posixLines(content, name, value) : content;
        String current = null;
        if (live) {
            ExecResult r = ctx.run(Cmd.script("cat -- \"/proc/sys/$1\"", path));
            if (!r.ok()) {
                if (ctx.bool("ignoreerrors", false)) live = false;
                else return ModuleResult.failed("no such sysctl: " + name + " (" + r.stderr().strip() + ")");
            } else {
                current = SysctlFile.norm(r.stdout());
            }
        }
        boolean liveChange = live && !value.equals(current);
        data.put("value", value);
        data.put("live_before", current == null ? "" : current);
        if (!fileChange && !liveChange) return ModuleResult.ok(name + " = " + value).withData(data);
        StringBuilder diff = new StringBuilder();
        if (fileChange) diff.append("- ").append(file).append(": ").append(nz(SysctlFile.get(content, name)))
                .append("\n+ ").append(file).append(": ").append(value).append('\n');
        if (liveChange) diff.append("- live: ").append(current).append("\n+ live: ").append(value).append('\n');
        if (!ctx.check()) {
            // the kernel is the judge of the value: set it live first, write the file only when it took it
            if (liveChange) {
                ExecResult set = ctx.run(setLive(path, value));
                if (!set.ok()) {
                    return ModuleResult.failed("cannot set " + name + " to '" + value + "' (" + set.stderr().strip()
                            + "); " + file + " left unchanged").withData(data);
                }
            }
            if (fileChange) {
                try {
                    RemoteFile.writeAtomic(ctx, file, next, "0644");
                } catch (io.rocectl.module.ModuleException e) {
                    if (liveChange) ctx.run(setLive(path, current));
                    throw new io.rocectl.module.ModuleException(e.getMessage()
                            + (liveChange ? " (live value put back to " + current + ")" : ""));
                }
            }
            if (ctx.bool("reload", true)) {
                // as ansible.posix.sysctl: a change with reload loads the WHOLE file (sysctl -p FILE)
                ExecResult p = ctx.run(reload(file, ctx.bool("ignoreerrors", false)));
                if (!p.ok() || RELOAD_FAILED.matcher(p.stderr()).find()) {
                    return ModuleResult.failed("Failed to reload sysctl: " + p.stdout() + p.stderr()).withData(data);
                }
            }
        }
        String msg = name + " = " + value + (fileChange ? " (file)" : "") + (liveChange ? " (live, was " + current + ")" : "")
                + (ctx.bool("reload", true) || ctx.bool("sysctl_set", false) ? "" : "; reload: false, live value NOT set");
        return ModuleResult.changed(ctx.check() ? "would set " + msg : msg).withData(data).withDiff(diff.toString());
    }

    /**
     * The value a sysctl file gives {@code name}: its last {@code key = value} line's, stripped
     * (as ansible.posix.sysctl reads it), or null when no line sets it.
     */
    static String fileValue(String content, String name) {
        String found = null;
        for (String raw : content.split("\n", -1)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";") || !line.contains("=")) continue;
            int eq = line.indexOf('=');
            if (line.substring(0, eq).strip().equals(name)) found = line.substring(eq + 1).strip();
        }
        return found;
    }

    /**
     * The file as ansible.posix.sysctl rewrites it: every line stripped; comments ({@code #},
     * {@code ;}), blank lines and lines without {@code =} kept; each key's first line written as
     * {@code key=value} and its later lines dropped; {@code name} given {@code value} (null:
     * removed), appended at the end when absent. So a file written by one is unchanged by the other.
     */
    static String posixLines(String content, String name, String value) {
        StringBuilder out = new StringBuilder();
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<String> lines = new java.util.ArrayList<>(List.of(content.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) lines.remove(lines.size() - 1); // (readlines)
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";") || !line.contains("=")) {
                out.append(line).append('\n');
                continue;
            }
            int eq = line.indexOf('=');
            String k = line.substring(0, eq).strip();
            if (!seen.add(k)) continue;
            if (k.equals(name)) {
                if (value != null) out.append(k).append('=').append(value).append('\n');
            } else {
                out.append(k).append('=').append(line.substring(eq + 1).strip()).append('\n');
            }
        }
        if (!seen.contains(name) && value != null) out.append(name).append('=').append(value).append('\n');
        return out.toString();
    }

    /** sysctl can exit 0 and still not set a key: ansible.posix.sysctl's stderr check. */
    private static final java.util.regex.Pattern RELOAD_FAILED = java.util.regex.Pattern.compile(
            "^sysctl: setting key \"[^\"]+\": (Invalid argument|Read-only file system)$", java.util.regex.Pattern.MULTILINE);

    /** {@code sysctl [-e] -p FILE}, found in the sbin directories as Ansible's get_bin_path does. */
    static Cmd reload(String file, boolean ignoreErrors) {
        return Cmd.script("PATH=$PATH:/sbin:/usr/sbin:/usr/local/sbin; if [ \"$2\" = 1 ]; then exec sysctl -e -p \"$1\"; "
                + "else exec sysctl -p \"$1\"; fi", file, ignoreErrors ? "1" : "0");
    }

    private static Cmd setLive(String path, String value) {
        return Cmd.script("printf '%s\\n' \"$2\" > \"/proc/sys/$1\"", path, value);
    }

    private static String nz(String s) {
        return s == null ? "(unset)" : s;
    }

    static String stringValue(Object v) {
        if (v instanceof Boolean b) return b ? "1" : "0";
        return String.valueOf(v);
    }
}
