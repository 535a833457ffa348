package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.template.Templar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code with_<lookup>} keywords load as lookup loops; two loops on one task are refused. */
class WithLoopsTest {
    @TempDir Path dir;

    private Playbook load(String yaml) throws Exception {
        return PlaybookText.load(dir, yaml);
    }

    @Test
    void withKeywordsBecomeLookups() throws Exception {
        Playbook pb = load("- hosts: all\n  tasks:\n    - debug: {msg: x}\n      with_dict: {a: 1}\n"
                + "    - debug: {msg: x}\n      with_items: [[1], 2]\n    - debug: {msg: x}\n      loop: [[1], 2]\n");
        List<Step> t = pb.plays().get(0).tasks();
        assertEquals(new LoopLookup("dict", Map.of("a", 1)), ((Task) t.get(0)).loop());
        assertEquals(new LoopLookup("items", List.of(List.of(1), 2)), ((Task) t.get(1)).loop());
        assertEquals(List.of(List.of(1), 2), ((Task) t.get(2)).loop());
    }

    @Test
    void twoLoopsAndUnknownLookupsAreRefused() {
        InputError two = assertThrows(InputError.class, () -> load(
                "- hosts: all\n  tasks:\n    - debug: {msg: x}\n      loop: [1]\n      with_sequence: count=2\n"));
        assertTrue(two.oneLine().contains(":5:7: task has two loops: 'loop' and 'with_sequence'"), two.oneLine());
        InputError bad = assertThrows(InputError.class, () -> load(
                "- hosts: all\n  tasks:\n    - debug: {msg: x}\n      with_inventory_hostnames: all\n"));
        assertTrue(bad.oneLine().contains(":4:7: 'with_inventory_hostnames' is not supported by rocectl (with_dict, "
                + "with_fileglob, with_indexed_items, with_items, with_list, with_nested, with_sequence, with_subelements, "
                + "with_together are)"), bad.oneLine());
    }

    @Test
    void numericAttributeIsASubscript() {
        Map<String, Object> vars = Map.of("item", List.of(Map.of("name", "alice"), List.of("k1", "k2")));
        assertEquals("alice k2", Templar.get().render("{{ item.0.name }} {{ item.1.1 }}", vars));
        assertEquals("1.5", Templar.get().render("{{ 1.5 }}", vars));
    }
}
