package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.module.ConnectionVarNames;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code -e k=v}, {@code -e @vars.yaml} and {@code -e '{"k": 1}'} (YAML/JSON inline). */
final class ExtraVars {
    private ExtraVars() {}

    static Map<String, Object> parse(List<String> specs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String s : specs) {
            if (s.startsWith("@")) {
                Path f = Path.of(s.substring(1));
                if (!Files.isRegularFile(f)) throw new InputError(f.toString(), 0, 0, "extra vars file not found");
                out.putAll(asMap(YamlReader.read(f, f.toString()), s));
            } else if (s.trim().startsWith("{")) {
                out.putAll(asMap(YamlReader.parse("option -e", s), s));
            } else {
                for (String kv : s.trim().split("\\s+")) {
                    int eq = kv.indexOf('=');
                    if (eq <= 0) throw new InputError("option -e", 0, 0, "expected key=value, got '" + kv + "'");
                    out.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        }
        for (String k : out.keySet()) {
            if (ConnectionVarNames.NAMES.contains(k)) {
                throw new InputError("option -e", 0, 0, ConnectionVarNames.refused(k));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(YamlFile doc, String where) {
        Object o = doc.value();
        if (o == null) return Map.of();
        if (!(o instanceof Map)) throw doc.error(doc.root(), "'" + where + "' is not a mapping of variables");
        return (Map<String, Object>) o;
    }
}
