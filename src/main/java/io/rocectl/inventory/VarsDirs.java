package io.rocectl.inventory;

import io.rocectl.yaml.YamlReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
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
                    for (Path f : walk(p)) if (isVarsFile(f.getFileName().toString())) vars.putAll(read(f));
                } else {
                    vars.putAll(read(p));
                }
                out.put(name, vars);
                break;
            }
        }
        return out;
    }

    private static boolean isVarsFile(String fn) {
        if (fn.startsWith(".")) return false;
        int dot = fn.lastIndexOf('.');
        return dot < 0 || EXTENSIONS.contains(fn.substring(dot));
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

    private static List<Path> walk(Path dir) {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(Files::isRegularFile).filter(p -> !hidden(dir, p)).sorted().forEach(out::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static boolean hidden(Path root, Path p) {
        for (Path part : root.relativize(p)) if (part.toString().startsWith(".")) return true;
        return false;
    }
}
