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
 */
public record HostResult(String host, String task, Status status, String msg, Map<String, Object> data,
                         String diff, List<HostResult> items, String itemLabel, long millis) {

    /** What {@code no_log: true} shows instead of a result (Ansible's words). */
    public static final String NO_LOG =
            "the output has been hidden due to the fact that 'no_log: true' was specified for this result";

    public HostResult {
        data = data == null ? Map.of() : data;
        items = items == null ? List.of() : List.copyOf(items);
        msg = msg == null ? "" : msg;
    }

    /**
     * This result as {@code no_log: true} shows it: the status and the changed/failed/skipped
     * flags stay; arguments, output, messages, diff and loop labels are replaced by {@link #NO_LOG}.
     */
    public HostResult censored() {
        Map<String, Object> d = censor(data);
        List<HostResult> censoredItems = new ArrayList<>();
        for (HostResult i : items) censoredItems.add(i.censored());
        return new HostResult(host, task, status, NO_LOG, d, null, censoredItems, null, millis);
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
