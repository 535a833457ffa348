package io.rocectl.template;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Ansible's {@code version} test: loose (default), strict and semver comparisons. */
final class Versions {
    private static final Pattern STRICT = Pattern.compile("^(\\d+)\\.(\\d+)(\\.(\\d+))?([ab](\\d+))?$");
    private static final Pattern SEMVER = Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)(?:-([0-9A-Za-z.-]+))?(?:\\+[0-9A-Za-z.-]+)?$");

    private Versions() {}

    static boolean compare(String a, String b, String op, boolean strict, String type) {
        String t = type == null ? (strict ? "strict" : "loose") : type;
        int c = switch (t) {
            case "loose" -> compareLists(loose(a), loose(b));
            case "strict" -> compareLists(strict(a), strict(b));
            case "semver", "semantic" -> semver(a, b);
            default -> throw new TemplateException("version: version_type '" + t + "' is not supported");
        };
        return switch (op) {
            case "==", "=", "eq" -> c == 0;
            case "!=", "<>", "ne" -> c != 0;
            case "<", "lt" -> c < 0;
            case "<=", "le" -> c <= 0;
            case ">", "gt" -> c > 0;
            case ">=", "ge" -> c >= 0;
            default -> throw new TemplateException("Invalid operator type (" + op + ")");
        };
    }

    private static List<Object> loose(String v) {
        List<Object> out = new ArrayList<>();
        Matcher m = Pattern.compile("\\d+|[a-z]+|\\.").matcher(v.toLowerCase());
        while (m.find()) {
            String p = m.group();
            if (p.equals(".")) continue;
            out.add(p.matches("\\d+") ? (Object) Long.parseLong(p) : p);
        }
        return out;
    }

    private static List<Object> strict(String v) {
        Matcher m = STRICT.matcher(v);
        if (!m.matches()) throw new TemplateException("Version comparison failed: invalid version number '" + v + "'");
        List<Object> out = new ArrayList<>();
        out.add(Long.parseLong(m.group(1)));
        out.add(Long.parseLong(m.group(2)));
        out.add(m.group(4) == null ? 0L : Long.parseLong(m.group(4)));
        return out; // pre-release tags compared as absent
    }

    private static int compareLists(List<Object> a, List<Object> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            int c;
            if (x instanceof Long lx && y instanceof Long ly) c = Long.compare(lx, ly);
            else if (x instanceof String sx && y instanceof String sy) c = sx.compareTo(sy);
            else throw new TemplateException("Version comparison failed: '<' not supported between instances of 'int' and 'str'");
            if (c != 0) return c;
        }
        return Integer.compare(a.size(), b.size());
    }

    private static int semver(String a, String b) {
        Matcher x = SEMVER.matcher(a);
        Matcher y = SEMVER.matcher(b);
        if (!x.matches() || !y.matches()) throw new TemplateException("Version comparison failed: invalid semantic version");
        for (int i = 1; i <= 3; i++) {
            int c = Long.compare(Long.parseLong(x.group(i)), Long.parseLong(y.group(i)));
            if (c != 0) return c;
        }
        String pa = x.group(4);
        String pb = y.group(4);
        if (pa == null || pb == null) return pa == null ? (pb == null ? 0 : 1) : -1;
        String[] ia = pa.split("\\.");
        String[] ib = pb.split("\\.");
        for (int i = 0; i < Math.min(ia.length, ib.length); i++) {
            boolean na = ia[i].matches("\\d+");
            boolean nb = ib[i].matches("\\d+");
            int c = na && nb ? Long.compare(Long.parseLong(ia[i]), Long.parseLong(ib[i])) : na ? -1 : nb ? 1 : ia[i].compareTo(ib[i]);
            if (c != 0) return c;
        }
        return Integer.compare(ia.length, ib.length);
    }
}
