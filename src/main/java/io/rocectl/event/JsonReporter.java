package io.rocectl.event;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --output json}: one JSON document at the end of the run: plays, tasks, per host results,
 * and the recap.
 */
public final class JsonReporter implements RunListener {
    private final PrintStream out;
    private final List<Map<String, Object>> plays = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private List<Map<String, Object>> tasks;

    public JsonReporter(PrintStream out) {
        this.out = out;
    }

    @Override
    public synchronized void onPlayStart(String play, List<String> hosts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("play", play);
        p.put("hosts", hosts);
        tasks = new ArrayList<>();
        p.put("tasks", tasks);
        plays.add(p);
    }

    @Override
    public synchronized void onTaskEnd(String task, List<HostResult> results) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("task", task);
        Map<String, Object> hosts = new LinkedHashMap<>();
        for (HostResult r : results) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("status", r.status().name().toLowerCase());
            h.put("msg", r.msg());
            h.put("duration_ms", r.millis());
            h.put("result", r.data());
            if (r.diff() != null) h.put("diff", r.diff());
            hosts.put(r.host(), h);
        }
        t.put("hosts", hosts);
        if (tasks != null) tasks.add(t);
    }

    @Override
    public synchronized void onWarning(String message) {
        warnings.add(message);
    }

    @Override
    public synchronized void onRecap(Recap recap) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("plays", plays);
        Map<String, Object> stats = new LinkedHashMap<>();
        recap.stats().forEach((h, s) -> stats.put(h, s));
        doc.put("stats", stats);
        doc.put("failed_hosts", recap.failedHosts());
        doc.put("unreachable_hosts", recap.unreachableHosts());
        doc.put("retry_file", recap.retryFile() == null ? null : recap.retryFile().toString());
        doc.put("interrupted", recap.interrupted());
        doc.put("duration_ms", recap.millis());
        doc.put("warnings", warnings);
        try {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
        } catch (IOException e) {
            throw new IllegalStateException("cannot render JSON: " + e.getMessage(), e);
        }
        out.flush();
    }
}
