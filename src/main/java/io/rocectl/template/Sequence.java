package io.rocectl.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Ansible's {@code sequence} lookup: {@code start=1 end=5 stride=1 format=gpu%02d}, {@code count=3}, or {@code [start-]end[/stride][:format]}. */
final class Sequence {
    private static final Pattern SHORT = Pattern.compile("^(?:(0[xo]?[0-9a-f]+|\\d+)-)?(0[xo]?[0-9a-f]+|\\d+)(?:/(0[xo]?[0-9a-f]+|\\d+))?(?::(.+))?$",
            Pattern.CASE_INSENSITIVE);

    private Sequence() {}

    static List<Object> of(String term, Map<String, Object> kw) {
        long start = 1;
        long stride = 1;
        Long end = null;
        Long count = null;
        String format = "%d";
        Matcher m = SHORT.matcher(term.trim());
        if (m.matches()) {
            if (m.group(1) != null) start = num(m.group(1));
            end = num(m.group(2));
            if (m.group(3) != null) stride = num(m.group(3));
            if (m.group(4) != null) format = m.group(4);
        } else {
            for (String part : term.trim().split("\\s+")) {
                int eq = part.indexOf('=');
                if (eq < 0) throw new TemplateException("sequence: can't parse arg '" + part + "'");
                String k = part.substring(0, eq);
                String v = part.substring(eq + 1);
                switch (k) {
                    case "start" -> start = num(v);
                    case "end" -> end = num(v);
                    case "count" -> count = num(v);
                    case "stride" -> stride = num(v);
                    case "format" -> format = v;
                    default -> throw new TemplateException("sequence: unrecognized arg '" + k + "'");
                }
            }
        }
        for (Map.Entry<String, Object> e : kw.entrySet()) {
            switch (e.getKey()) {
                case "start" -> start = Filters.toLong(e.getValue());
                case "end" -> end = Filters.toLong(e.getValue());
                case "count" -> count = Filters.toLong(e.getValue());
                case "stride" -> stride = Filters.toLong(e.getValue());
                case "format" -> format = Py.str(e.getValue());
                default -> { }
            }
        }
        if (count != null && end != null) throw new TemplateException("sequence: can't specify both count and end");
        if (count != null) {
            end = count == 0 ? start - stride : start + (count - 1) * stride;
        }
        if (end == null) throw new TemplateException("sequence: must specify count or end");
        if (stride == 0) return List.of();
        if (stride > 0 && end < start || stride < 0 && end > start) {
            if (count != null && count == 0) return List.of();
            throw new TemplateException("sequence: to count backwards make stride negative");
        }
        List<Object> out = new ArrayList<>();
        for (long i = start; stride > 0 ? i <= end : i >= end; i += stride) {
            out.add(PyStrings.percent(format, List.of(i), false));
            if (out.size() > 1_000_000) throw new TemplateException("sequence: more than a million items");
        }
        return out;
    }

    private static long num(String s) {
        String t = s.toLowerCase();
        if (t.startsWith("0x")) return Long.parseLong(t.substring(2), 16);
        if (t.startsWith("0o")) return Long.parseLong(t.substring(2), 8);
        if (t.length() > 1 && t.startsWith("0")) return Long.parseLong(t.substring(1), 8);
        return Long.parseLong(t);
    }
}
