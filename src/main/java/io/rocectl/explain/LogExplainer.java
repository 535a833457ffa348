package io.rocectl.explain;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a whole log (a file, stdin or pasted text) line by line through {@link Explain} and keeps,
 * per distinct event, its count and the first line it was found on. Memory is bounded: one line at a
 * time (lines longer than {@link #MAX_LINE} characters are cut there) and one entry per event.
 */
public final class LogExplainer {
    /** Longest part of a line that is examined; the rest of a longer line is skipped. */
    public static final int MAX_LINE = 64 * 1024;
    /** Longest part of the first line kept for the report. */
    public static final int MAX_SHOWN = 400;
    /** Most distinct address sets (peer, local and remote GID) kept per finding. */
    public static final int MAX_SEEN = 8;

    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private final Map<String, LogFinding> first = new LinkedHashMap<>();
    private final Map<String, Set<LogAddresses.Seen>> seen = new LinkedHashMap<>();
    private long lines;

    /** Every distinct event in {@code in}, highest layer first, then by first line. */
    public static List<LogFinding> scan(Reader in) throws IOException {
        LogExplainer x = new LogExplainer();
        char[] buf = new char[8192];
        StringBuilder line = new StringBuilder();
        int n;
        while ((n = in.read(buf)) > 0) {
            for (int i = 0; i < n; i++) {
                char c = buf[i];
                if (c == '\n') {
                    x.line(line);
                    line.setLength(0);
                } else if (line.length() < MAX_LINE) {
                    line.append(c);
                }
            }
        }
        if (line.length() > 0) x.line(line);
        return x.findings();
    }

    private void line(StringBuilder sb) {
        lines++;
        int end = sb.length();
        if (end > 0 && sb.charAt(end - 1) == '\r') end--;
        String text = sb.substring(0, end);
        List<Explanation> es = Explain.explain(text);
        LogAddresses.Seen at = es.isEmpty() ? null : LogAddresses.of(text);
        for (Explanation e : es) {
            counts.computeIfAbsent(e.id(), k -> new long[1])[0]++;
            first.computeIfAbsent(e.id(), k -> new LogFinding(e, 0, lines,
                    text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "..." : text, List.of()));
            Set<LogAddresses.Seen> s = seen.computeIfAbsent(e.id(), k -> new LinkedHashSet<>());
            if (!at.isEmpty() && s.size() < MAX_SEEN) s.add(at);
        }
    }

    private List<LogFinding> findings() {
        List<LogFinding> out = new ArrayList<>();
        for (LogFinding f : first.values()) {
            out.add(new LogFinding(f.explanation(), counts.get(f.explanation().id())[0], f.firstLine(), f.firstText(),
                    List.copyOf(seen.get(f.explanation().id()))));
        }
        out.sort((a, b) -> {
            int c = b.explanation().layer().compareTo(a.explanation().layer());
            return c != 0 ? c : Long.compare(a.firstLine(), b.firstLine());
        });
        return out;
    }
}
