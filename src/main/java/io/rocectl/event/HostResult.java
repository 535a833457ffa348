package io.rocectl.event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one task on one host.
 *
 * @param data  the registered result (rc, stdout, ..., changed, failed, msg; {@code results} for loops)
 * @param items per-item outcomes of a loop, empty otherwise
 * @param via   where a delegated task ran, as Ansible's console names it: the {@code delegate_to}
 *              host, followed by {@code (ADDRESS)} when it is reached at another address; null
 *              when the task ran on its own host
 * @param shown what the console prints as the result's body, as Ansible's callback does for
 *              {@code debug} ({@code {"msg": ...}} or {@code {VAR: value}}); null: none
 */
public record HostResult(String host, String task, Status status, String msg, Map<String, Object> data,
                         String diff, List<HostResult> items, String itemLabel, long millis, String via,
                         Map<String, Object> shown) {

    /** What {@code no_log: true} shows instead of a result (Ansible's words). */
    public static final String NO_LOG =
            "the output has been hidden due to the fact that 'no_log: true' was specified for this result";

    public HostResult {
        data = data == null ? Map.of() : data;
        items = items == null ? List.of() : List.copyOf(items);
        msg = msg == null ? "" : msg;
    }

    /** A result without a body to show (see the record's parameters). */
    public HostResult(String host, String task, Status status, String msg, Map<String, Object> data,
                      String diff, List<HostResult> items, String itemLabel, long millis, String via) {
        this(host, task, status, msg, data, diff, items, itemLabel, millis, via, null);
    }

    /** A result of a task run on its own host. */
    public HostResult(String host, String task, Status status, String msg, Map<String, Object> data,
                      String diff, List<HostResult> items, String itemLabel, long millis) {
        this(host, task, status, msg, data, diff, items, itemLabel, millis, null);
    }

    /** This result, run on {@code via} (see the record's parameter). */
    public HostResult via(String where) {
        return new HostResult(host, task, status, msg, data, diff, items, itemLabel, millis, where, shown);
    }

    /** This result with {@code body} shown under its line (see the record's parameter). */
    public HostResult showing(Map<String, Object> body) {
        return new HostResult(host, task, status, msg, data, diff, items, itemLabel, millis, via, body);
    }

    /**
     * The host as Ansible's console shows this result: {@code h1}, or {@code h1 -> localhost} /
     * {@code h1 -> gpu02(10.0.0.2)} for a delegated one (a skipped result names its host only).
     */
    public String label() {
        return via == null || status == Status.SKIPPED ? host : host + " -> " + via;
    }

    /**
     * This result as {@code no_log: true} shows it: the status and the changed/failed/skipped
     * flags stay; arguments, output, messages, diff and loop labels are replaced by {@link #NO_LOG}.
     */
    public HostResult censored() {
        Map<String, Object> d = censor(data);
        List<HostResult> censoredItems = new ArrayList<>();
        for (HostResult i : items) censoredItems.add(i.censored());
        return new HostResult(host, task, status, NO_LOG, d, null, censoredItems, null, millis, via);
    }

    private static Map<String, Object> censor(Map<String, Object> data) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("censored", NO_LOG);
        for (String flag : List.of("changed", "failed", "skipped", "unreachable")) {
            if (data.get(flag) instanceof Boolean b) d.put(flag, b);
        }
        if (data.get("results") instanceof List<?> results) {
            List<Object> out = new ArrayList<>();
            for (Object r : results) {
                @SuppressWarnings("unchecked")
                Map<String, Object> m = r instanceof Map<?, ?> ? (Map<String, Object>) r : Map.of();
                out.add(censor(m));
            }
            d.put("results", out);
        }
        return d;
    }
}
