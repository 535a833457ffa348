package io.rocectl.event;

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

    public HostResult {
        data = data == null ? Map.of() : data;
        items = items == null ? List.of() : List.copyOf(items);
        msg = msg == null ? "" : msg;
    }
}
