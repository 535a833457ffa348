package io.rocectl.inventory;

import io.rocectl.yaml.YamlReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import io.rocectl.yaml.YamlMapping;

/**
 * Reads a {@code group_vars/} or {@code host_vars/} directory as Ansible does: for a name
 * {@code N}, the first of {@code N}, {@code N.yml}, {@code N.yaml}, {@code N.json} that exists; a
 * directory {@code N/} contributes every {@code .yml/.yaml/.json} or extensionless file under it
 * (recursively, in path order, later files overriding earlier ones). Hidden files are ignored.
 * Each file is a YAML mapping (or empty).
 */
final class VarsDirs {
    private static final List<String> EXTENSIONS = List.of(".yml", ".yaml", ".json");

    private VarsDirs() {}

    /**
     * Name -> merged variables for the names that have a file; empty when the directory does not
     * exist. Per name the first existing of {@code N} (file or directory), {@code N.yml},
     * {@code N.yaml}, {@code N.json} is used, as Ansible's {@code host_group_vars} plugin does.
     */
    static Map<String, Map<String, Object>> load(Path dir, Collection<String> names) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) return out;
        for (String name : names) {
            for (String ext : List.of("", ".yml", ".yaml", ".json")) {
                Path p = dir.resolve(name + ext);
                if (!Files.exists(p)) continue;
                Map<String, Object> vars = new LinkedHashMap<>();
                if (Files.isDirectory(p)) {
                    for (Path f : walk(p)) vars.putAll(read(f));
                } else {
                    vars.putAll(read(p));
                }
                out.put(name, vars);
                break;
            }
        }
        return out;
    }

    private static Map<String, Object> read(Path f) {
        String text = YamlReader.readText(f, f.toString());
        YamlDoc doc = YamlDoc.parse(f.toString(), text);
        if (YamlDoc.isNull(doc.root())) return Map.of();
        if (!(doc.root() instanceof YamlMapping)) {
            throw doc.error(doc.root(), "a vars file must be a mapping of variables, got " + YamlDoc.describe(doc.root()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (io.rocectl.yaml.YamlEntry t : ((YamlMapping) doc.root()).getValue()) {
            String name = YamlDoc.text(t.getKeyNode());
            String bad = name == null ? null : VarChecks.problem(name, doc.value(t.getValueNode()));
            if (bad != null) throw doc.error(t.getValueNode(), bad);
        }
        ((Map<?, ?>) doc.value(doc.root())).forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    /**
     * The files of a {@code group_vars/N/} directory as Ansible's {@code _get_dir_vars_files}
     * lists them: entries in name order, hidden ones and {@code *~} skipped, a subdirectory
     * without an extension descended into where it sorts, files without an extension or with
     * {@code .yml}, {@code .yaml}, {@code .json}.
     */
    private static List<Path> walk(Path dir) {
        List<Path> out = new ArrayList<>();
        List<Path> entries;
        try (Stream<Path> s = Files.list(dir)) {
            entries = s.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path p : entries) {
            String n = p.getFileName().toString();
            if (n.startsWith(".") || n.endsWith("~")) continue;
            int dot = n.lastIndexOf('.');
            String ext = dot <= 0 ? "" : n.substring(dot);
            if (Files.isDirectory(p)) {
                if (ext.isEmpty()) out.addAll(walk(p));
            } else if (Files.isRegularFile(p) && (ext.isEmpty() || EXTENSIONS.contains(ext))) {
                out.add(p);
            }
        }
        return out;
    }
}
