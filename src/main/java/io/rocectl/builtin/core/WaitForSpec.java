package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import io.rocectl.module.Values;
import io.rocectl.transport.Cmd;

import java.util.Map;

/**
 * What a {@code wait_for} task waits for (pure): a TCP port on {@code host} to accept (state
 * started) or refuse (stopped) connections, or a path to exist (present/started, optionally
 * containing {@code search_regex}, an extended regex as grep -E reads it) or not (absent/stopped).
 * The probe is one command per attempt; the port probe connects from the managed host, with
 * bash's {@code /dev/tcp} or else {@code nc -z}.
 *
 * @param host           host to connect to (port mode)
 * @param port           port, or 0 in path mode
 * @param path           path, or null in port mode
 * @param present        wait for open/existing (true) or closed/absent (false)
 * @param searchRegex    regex the file must contain, or null
 * @param timeoutSeconds give up after this long
 * @param delaySeconds   wait this long before the first probe
 * @param sleepSeconds   pause between probes
 * @param connectTimeout seconds one connection attempt may take
 * @param msg            failure message on timeout, or null for the default
 */
public record WaitForSpec(String host, int port, String path, boolean present, String searchRegex,
                          int timeoutSeconds, int delaySeconds, int sleepSeconds, int connectTimeout, String msg) {

    /** Neither a port nor a path: the task only sleeps for {@code delay + timeout}, as in Ansible. */
    public boolean sleepOnly() {
        return port == 0 && path == null;
    }

    /** Exit status of the port probe when neither bash nor nc exists on the host. */
    static final int NO_TOOL = 99;

    private static final String PORT_PROBE = "if command -v bash >/dev/null 2>&1; then "
            + "exec timeout \"$3\" bash -c 'exec 3<>\"/dev/tcp/$0/$1\"' \"$1\" \"$2\" 2>/dev/null; "
            + "elif command -v nc >/dev/null 2>&1; then exec nc -z -w \"$3\" \"$1\" \"$2\"; else exit " + NO_TOOL + "; fi";
    private static final String PATH_PROBE = "[ -e \"$1\" ] || exit 1; "
            + "if [ -n \"$2\" ]; then grep -Eq -- \"$2\" \"$1\" || exit 1; fi; "
            // what it is, registered as "state" (as Ansible's add_path_info)
            + "if [ -L \"$1\" ]; then echo link; elif [ -d \"$1\" ]; then echo directory; "
            + "elif [ \"$(stat -c %h -- \"$1\" 2>/dev/null || echo 1)\" -gt 1 ]; then echo hard; else echo file; fi; exit 0";

    public static WaitForSpec from(Map<String, Object> a) {
        int port = Values.toInt(a.get("port"), 0, "port");
        String path = a.get("path") == null ? null : a.get("path").toString();
        // as Ansible: both is an error; neither means wait_for just sleeps (delay + timeout)
        if (port != 0 && path != null) throw new ModuleException("port and path parameter can not both be passed to wait_for");
        if (port < 0 || port > 65535) throw new ModuleException("port " + port + " is out of range");
        String state = a.get("state") == null ? "started" : a.get("state").toString();
        boolean present = switch (state) {
            case "started", "present" -> true;
            case "stopped", "absent" -> false;
            default -> throw new ModuleException("state must be one of started, stopped, present, absent; got '" + state + "'");
        };
        String re = a.get("search_regex") == null ? null : a.get("search_regex").toString();
        if (re != null && (path == null || !present)) throw new ModuleException("search_regex needs path with state present");
        return new WaitForSpec(a.get("host") == null ? "127.0.0.1" : a.get("host").toString(), port, path, present, re,
                Values.toInt(a.get("timeout"), 300, "timeout"), Values.toInt(a.get("delay"), 0, "delay"),
                Math.max(1, Values.toInt(a.get("sleep"), 1, "sleep")),
                Math.max(1, Values.toInt(a.get("connect_timeout"), 5, "connect_timeout")),
                a.get("msg") == null ? null : a.get("msg").toString());
    }

    public Cmd probe() {
        return path != null ? Cmd.script(PATH_PROBE, path, searchRegex == null ? "" : searchRegex)
                : Cmd.script(PORT_PROBE, host, String.valueOf(port), String.valueOf(connectTimeout));
    }

    /** Whether the probe's exit status means the wait is over. */
    public boolean satisfied(int rc) {
        if (rc == NO_TOOL && path == null) throw new ModuleException("cannot probe ports on this host: neither bash nor nc is installed");
        return present == (rc == 0);
    }

    public String what() {
        return path != null ? "file " + path : host + ":" + port;
    }

    public String timeoutMessage() {
        return msg != null ? msg : "Timeout when waiting for " + what();
    }
}
