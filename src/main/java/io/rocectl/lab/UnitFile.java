package io.rocectl.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pure: a systemd-style INI file ({@code .service}, {@code .network}, {@code networkd.conf}) as an
 * ordered list of sections, each an ordered list of key/value pairs (keys may repeat). Comments
 * ({@code #}, {@code ;}) and backslash line continuations are handled as systemd does.
 */
public record UnitFile(List<Section> sections) {

    /** One {@code [Name]} section. */
    public record Section(String name, List<Map.Entry<String, String>> entries) {
        public Section {
            entries = List.copyOf(entries);
        }

        /** Last value of the key, or null (a later assignment overrides an earlier one). */
        public String last(String key) {
            String v = null;
            for (Map.Entry<String, String> e : entries) if (e.getKey().equals(key)) v = e.getValue();
            return v;
        }

        /** Every value of the key in order; an empty assignment resets the list, as in systemd. */
        public List<String> all(String key) {
            List<String> l = new ArrayList<>();
            for (Map.Entry<String, String> e : entries) {
                if (!e.getKey().equals(key)) continue;
                if (e.getValue().isEmpty()) l.clear();
                else l.add(e.getValue());
            }
            return l;
        }
    }

    public UnitFile {
        sections = List.copyOf(sections);
    }

    public static UnitFile parse(String text) {
        List<Section> out = new ArrayList<>();
        String name = null;
        List<Map.Entry<String, String>> entries = new ArrayList<>();
        StringBuilder cont = null;
        for (String raw : text.split("\n", -1)) {
            String line = raw.strip();
            if (cont != null) {
                if (line.startsWith("#") || line.startsWith(";")) continue;
                boolean more = line.endsWith("\\");
                cont.append(' ').append(more ? line.substring(0, line.length() - 1) : line);
                if (more) continue;
                line = cont.toString();
                cont = null;
            } else {
                if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) continue;
                if (line.startsWith("[") && line.endsWith("]")) {
                    if (name != null) out.add(new Section(name, entries));
                    name = line.substring(1, line.length() - 1).strip();
                    entries = new ArrayList<>();
                    continue;
                }
                if (line.endsWith("\\")) {
                    cont = new StringBuilder(line.substring(0, line.length() - 1));
                    continue;
                }
            }
            int eq = line.indexOf('=');
            if (eq < 0 || name == null) continue;
            entries.add(Map.entry(line.substring(0, eq).strip(), line.substring(eq + 1).strip()));
        }
        if (name != null) out.add(new Section(name, entries));
        return new UnitFile(out);
    }

    /** All sections of that name, in order (a .network may have several [Route] sections). */
    public List<Section> sections(String sectionName) {
        return sections.stream().filter(s -> s.name().equals(sectionName)).toList();
    }

    /** Last value of key across sections of that name, or null. */
    public String last(String sectionName, String key) {
        String v = null;
        for (Section s : sections(sectionName)) {
            String x = s.last(key);
            if (x != null) v = x;
        }
        return v;
    }

    /** This file followed by drop-ins (drop-in entries apply after, sections append). */
    public UnitFile merge(List<UnitFile> dropIns) {
        List<Section> l = new ArrayList<>(sections);
        for (UnitFile d : dropIns) l.addAll(d.sections());
        return new UnitFile(l);
    }
}
