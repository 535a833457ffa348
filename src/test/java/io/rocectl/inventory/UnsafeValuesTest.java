package io.rocectl.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.rocectl.template.Templar;
import io.rocectl.yaml.Unsafe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code !unsafe} (docs playbooks_advanced_syntax "Unsafe or raw strings"): loaded, never templated. */
class UnsafeValuesTest {
    @Test
    void unsafeInventoryValueIsNeverTemplated(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("hosts.yml");
        Files.writeString(f, "all:\n  hosts:\n    h1:\n      raw: !unsafe '{{ secret }}'\n      secret: s3cret\n");
        Inventory inv = InventoryLoader.load(f);
        Object raw = inv.varsFor("h1").get("raw");
        assertInstanceOf(Unsafe.class, raw);
        Map<String, Object> vars = new HashMap<>(inv.varsFor("h1"));
        Templar t = Templar.get();
        assertEquals("{{ secret }}", String.valueOf(t.render(raw, vars)), "the value itself is not a template");
        assertEquals("x {{ secret }}", t.render("x {{ raw }}", vars), "its text is output, never templated again");
        assertEquals("{{ secret }}", String.valueOf(t.render("{{ raw }}", vars)));
    }
}
