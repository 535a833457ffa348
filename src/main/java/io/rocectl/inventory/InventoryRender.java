package io.rocectl.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ansible-inventory}-style views of an inventory: {@link #listJson} ({@code --list}),
 * {@link #graph} ({@code --graph}) and {@link #hostJson} ({@code --host}). JSON keys are sorted
 * and indented by four spaces, as Ansible prints them.
 */
public final class InventoryRender {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
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

    private static String write(Object doc) {
        try {
            return JSON.writer(PRETTY).writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
