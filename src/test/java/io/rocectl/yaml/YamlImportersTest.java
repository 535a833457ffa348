package io.rocectl.yaml;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One YAML loading path: no package but {@code yaml} imports snakeyaml. */
class YamlImportersTest {
    @Test
    void onlyTheYamlPackageImportsSnakeyaml() throws IOException {
        Path main = Path.of("src/main/java");
        assertTrue(Files.isDirectory(main), "run from the project directory");
        List<String> others;
        try (Stream<Path> files = Files.walk(main)) {
            others = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.getParent().endsWith(Path.of("io/rocectl/yaml")))
                    .filter(f -> {
                        try {
                            return Files.readString(f).contains("import org.yaml.snakeyaml");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(Path::toString).sorted().toList();
        }
        assertEquals(List.of(), others);
    }
}
