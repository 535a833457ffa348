package io.rocectl.template;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the recorded differential cases cannot show: omit in nested arguments, with_* loops, fileglob, template files, load-time refusals. */
class TemplarTest {
    final Templar templar = Templar.get();

    /** A YAML date or datetime, as PyYAML builds it: text in a template, repr in a list, never equal to a string. */
    @Test
    void yamlTimestampsTemplateAsPythonDatesDo() {
        Map<String, Object> vars = Map.of("d", io.rocectl.yaml.Timestamp.parse("2002-12-14"),
                "t", io.rocectl.yaml.Timestamp.parse("2001-12-14 21:59:43.10 -5"), "s", "2002-12-14");
        assertEquals("2002-12-14", templar.render("{{ d }}", vars));
        assertEquals("2001-12-14 21:59:43.100000-05:00", templar.render("{{ t }}", vars));
        assertEquals("at 2001-12-14 21:59:43.100000-05:00", templar.render("at {{ t }}", vars));
        assertEquals("[datetime.date(2002, 12, 14)]", templar.render("{{ [d] }}", vars),
                "Python's str() of the list, which Ansible cannot read back as a literal");
        assertEquals(false, templar.condition("d == s", vars));
        assertEquals(true, templar.condition("d != '2002-12-14'", vars));
        assertEquals(true, templar.condition("d | string == s", vars));
        assertEquals(true, templar.condition("s == '2002-12-14'", vars), "plain strings compare as before");
        assertEquals("[\n    \"2001-12-14T21:59:43.100000-05:00\"\n]", JsonText.displayed(List.of(vars.get("t"))),
                "a result shows a datetime as Ansible's JSON encoder does: isoformat()");
    }

    @Test
    void omitLeavesOutNestedMappingEntriesOnly() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("a", "{{ x | default(omit) }}");
        args.put("b", Map.of("c", "{{ omit }}", "d", 1));
        args.put("l", List.of("{{ omit }}", "kept"));
        Object r = templar.render(args, Map.of());
        assertEquals(Map.of("b", Map.of("d", 1), "l", List.of(Templar.OMIT, "kept")), r,
                "as Ansible's remove_omit: mappings lose the entry, list items stay");
    }

    @Test
    void withLoopsRunTheirLookup() {
        Map<String, Object> vars = Map.of("users", List.of(Map.of("name", "a", "g", List.of(1, 2))));
        assertEquals(List.of(Map.of("key", "x", "value", 1)), templar.query("dict", Map.of("x", 1), vars));
        assertEquals(List.of("n1", "n2"), templar.query("sequence", "start=1 end=2 format=n%d", vars));
        assertEquals(List.of(1, 2, 3), templar.query("items", List.of(1, List.of(2, 3)), vars));
        assertEquals(List.of(List.of(Map.of("name", "a"), 1), List.of(Map.of("name", "a"), 2)),
                templar.query("subelements", List.of(vars.get("users"), "g"), vars));
        TemplateException e = assertThrows(TemplateException.class, () -> templar.query("nope", List.of(), vars));
        assertTrue(e.getMessage().contains("with_nope"), e.getMessage());
    }

    @Test
    void fileglobFindsFilesUnderThePlaybooksFilesDirectory(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("files/conf.d"));
        Files.writeString(dir.resolve("files/conf.d/b.conf"), "");
        Files.writeString(dir.resolve("files/conf.d/a.conf"), "");
        Files.writeString(dir.resolve("files/conf.d/skip.txt"), "");
        Files.writeString(dir.resolve("files/conf.d/.hidden.conf"), "");
        Map<String, Object> vars = Map.of("playbook_dir", dir.toString());
        // the directory's order, as Python's glob (no sorting); a dot file only for a dot pattern
        List<Object> found = templar.query("fileglob", "conf.d/*.conf", vars);
        assertEquals(java.util.Set.of(dir.resolve("files/conf.d/a.conf").toString(), dir.resolve("files/conf.d/b.conf").toString()),
                new java.util.HashSet<>(found));
        assertEquals(2, found.size());
        assertEquals(String.join(",", found.stream().map(String::valueOf).toList()),
                templar.render("{{ lookup('fileglob', 'conf.d/*.conf') }}", vars));
        assertEquals(List.of(dir.resolve("files/conf.d/.hidden.conf").toString()), templar.query("fileglob", "conf.d/.*.conf", vars));
    }

    @Test
    void templateFilesTrimBlocksAndPrintPythonValues() {
        String text = templar.renderText("""
                {% for nic in nics %}
                {{ nic.name }} mtu={{ nic.mtu }} up={{ nic.up }}
                {% endfor %}
                extra={{ extra }}
                """, Map.of("nics", List.of(Map.of("name", "eth0", "mtu", 9000, "up", true)), "extra", List.of("a", 1)));
        assertEquals("eth0 mtu=9000 up=True\nextra=['a', 1]\n", text);
    }

    @Test
    void unknownFiltersAndLoopFiltersAreRefusedBeforeRunning() {
        TemplateException f = assertThrows(TemplateException.class, () -> templar.checkTemplate("{{ x | json_query('a') }}"));
        assertTrue(f.getMessage().contains("no filter named 'json_query'"), f.getMessage());
        TemplateException l = assertThrows(TemplateException.class, () -> templar.checkTemplate("{% for x in y if x %}{% endfor %}"));
        assertTrue(l.getMessage().contains("loop filter"), l.getMessage());
    }
}
