package io.rocectl.builtin.core;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Loads fixture files from {@code src/test/resources/fixtures/modules/}. */
final class Fixtures {
    private Fixtures() {}

    static String text(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/modules/" + name)) {
            if (in == null) throw new IllegalArgumentException("no fixture " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> cases(String name) {
        return (List<Map<String, Object>>) new Yaml().load(text(name));
    }
}
