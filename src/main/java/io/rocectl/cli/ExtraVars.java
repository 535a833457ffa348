package io.rocectl.cli;

import io.rocectl.error.InputError;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;
import java.io.Reader;
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
                try (Reader r = Files.newBufferedReader(f)) {
                    out.putAll(asMap(yaml().load(r), s));
                } catch (IOException e) {
                    throw new InputError(f.toString(), 0, 0, "cannot read extra vars file: " + e.getMessage());
                } catch (YAMLException e) {
                    throw new InputError(f.toString(), 0, 0, "bad YAML: " + e.getMessage().split("\n")[0]);
                }
            } else if (s.trim().startsWith("{")) {
                try {
                    out.putAll(asMap(yaml().load(s), s));
                } catch (YAMLException e) {
                    throw new InputError("option -e", 0, 0, "bad inline YAML/JSON '" + s + "'");
                }
            } else {
                for (String kv : s.trim().split("\\s+")) {
                    int eq = kv.indexOf('=');
                    if (eq <= 0) throw new InputError("option -e", 0, 0, "expected key=value, got '" + kv + "'");
                    out.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o, String where) {
        if (o == null) return Map.of();
        if (!(o instanceof Map)) throw new InputError("option -e", 0, 0, "'" + where + "' is not a mapping");
        return (Map<String, Object>) o;
    }

    private static Yaml yaml() {
        LoaderOptions lo = new LoaderOptions();
        lo.setAllowDuplicateKeys(false);
        return new Yaml(new SafeConstructor(lo));
    }
}
