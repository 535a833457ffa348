package io.rocectl.inventory;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.math.BigDecimal;
import java.io.UncheckedIOException;
import io.rocectl.yaml.Unsafe;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ansible-inventory}-style views of an inventory: {@link #listJson} ({@code --list}),
 * {@link #graph} ({@code --graph}) and {@link #hostJson} ({@code --host}). JSON keys are sorted
 * and indented by four spaces, as Ansible prints them.
 */
public final class InventoryRender {
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new SimpleModule()
            .addSerializer(Double.class, new JsonSerializer<Double>() {
                @Override
                public void serialize(Double d, JsonGenerator gen, SerializerProvider p) throws IOException {
                    gen.writeRawValue(pythonFloat(d));
                }
            }));
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withObjectIndenter(new DefaultIndenter("    ", "\n"))
            .withArrayIndenter(new DefaultIndenter("    ", "\n"));

    private InventoryRender() {}

    /**
     * Like {@code ansible-inventory --list}: {@code _meta.hostvars} (merged vars of every host
     * that has any) and one entry per group with its direct {@code hosts} and {@code children}
     * (groups with neither are left out, as Ansible does).
     */
    public static String listJson(Inventory inv) {
        Map<String, Object> doc = new LinkedHashMap<>();
        Map<String, Object> hostvars = new LinkedHashMap<>();
        for (String h : inv.hosts()) {
            Map<String, Object> vars = inv.varsFor(h);
            if (!vars.isEmpty()) hostvars.put(h, vars);
        }
        doc.put("_meta", Map.of("hostvars", hostvars));
        for (Group g : inv.groupDefs().values()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            if (!g.children().isEmpty()) entry.put("children", g.children());
            if (!g.hosts().isEmpty()) entry.put("hosts", g.hosts());
            if (!entry.isEmpty()) doc.put(g.name(), entry);
        }
        return write(doc);
    }

    /** Like {@code ansible-inventory --graph}: the {@code @all:} tree, child groups before hosts. */
    public static String graph(Inventory inv) {
        StringBuilder sb = new StringBuilder();
        graph(inv, "all", 0, sb);
        return sb.toString();
    }

    /** Like {@code ansible-inventory --host NAME}: the host's merged variables. */
    public static String hostJson(Inventory inv, String host) {
        return write(inv.varsFor(host));
    }

    private static void graph(Inventory inv, String group, int depth, StringBuilder sb) {
        line(sb, depth, "@" + group + ":");
        Group g = inv.groupDefs().get(group);
        for (String c : g.children()) graph(inv, c, depth + 1, sb);
        List<String> hosts = group.equals("all") ? List.of() : g.hosts();
        for (String h : hosts) line(sb, depth + 1, h);
    }

    private static void line(StringBuilder sb, int depth, String name) {
        if (depth > 0) sb.append("  |".repeat(depth)).append("--");
        sb.append(name).append('\n');
    }

    /**
     * The value as Python's {@code json.dumps(sort_keys=True)} sees it: mapping keys sorted (numbers
     * numerically, strings by code point) and printed as JSON strings ({@code 1}, {@code true});
     * an {@code !unsafe} string as Ansible's {@code {"__ansible_unsafe": text}}; a YAML date or
     * datetime as its {@code isoformat()}. Ansible prints a
     * document whose mapping mixes number and string keys unsorted (with a warning); here such
     * keys are sorted by their text.
     */
    static Object pythonView(Object v) {
        if (v instanceof Unsafe u) return Map.of("__ansible_unsafe", u.text());
        if (v instanceof io.rocectl.yaml.Timestamp t) return t.iso(); // Ansible's JSON encoder: isoformat()
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object o : l) out.add(pythonView(o));
            return out;
        }
        if (!(v instanceof Map<?, ?> m)) return v;
        boolean numeric = !m.isEmpty() && m.keySet().stream().allMatch(k -> k instanceof Number || k instanceof Boolean);
        List<Map.Entry<?, ?>> entries = new ArrayList<>(m.entrySet());
        if (numeric) {
            entries.sort(Comparator.comparingDouble(e -> number(e.getKey())));
        } else {
            entries.sort(Comparator.comparing(e -> String.valueOf(e.getKey())));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : entries) out.put(String.valueOf(e.getKey()), pythonView(e.getValue()));
        return out;
    }

    private static double number(Object k) {
        if (k instanceof Boolean b) return b ? 1 : 0;
        return ((Number) k).doubleValue();
    }

    /**
     * A float as Python's {@code json.dumps} prints it: {@code repr()} (shortest digits, fixed
     * notation for exponents from -4 to 16: {@code 0.0001}, {@code 1e-05}, {@code 1e+16}), and
     * {@code Infinity}, {@code -Infinity}, {@code NaN} bare.
     */
    static String pythonFloat(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
        if (d == 0) return (1 / d < 0) ? "-0.0" : "0.0";
        BigDecimal bd = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = bd.unscaledValue().toString();
        int decpt = digits.length() - bd.scale(); // the value is 0.DIGITS x 10^decpt
        String sign = d < 0 ? "-" : "";
        if (decpt <= -4 || decpt > 16) {
            String mant = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            int exp = decpt - 1;
            return sign + mant + "e" + (exp < 0 ? "-" : "+") + String.format("%02d", Math.abs(exp));
        }
        if (decpt <= 0) return sign + "0." + "0".repeat(-decpt) + digits;
        if (decpt >= digits.length()) return sign + digits + "0".repeat(decpt - digits.length()) + ".0";
        return sign + digits.substring(0, decpt) + "." + digits.substring(decpt);
    }

    private static String write(Object doc) {
        try {
            return JSON.writer(PRETTY).writeValueAsString(pythonView(doc)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
