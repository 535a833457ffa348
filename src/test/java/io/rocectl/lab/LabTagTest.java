package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ROCECTL_LAB_TAG: two suites at once give their labs different names, every tagged name is a
 * valid lab name, and no two test classes' labs end up with the same name once tagged.
 */
class LabTagTest {
    @Test
    void aTagEndsTheNameWithinTenCharacters() {
        assertEquals("labt", LabTestSupport.named("labt", ""));
        assertEquals("labtq7", LabTestSupport.named("labt", "q7"));
        assertEquals("explainnq7", LabTestSupport.named("explainnic", "q7"));
        assertEquals("slurmdr9z1", LabTestSupport.named("slurmdrain", "9z1"));
        for (String n : List.of(LabTestSupport.named("explainnic", "q7"), LabTestSupport.named("a", "9z1"))) {
            LabSpec.of(n, 1, 1); // refuses a name a lab cannot have
        }
    }

    @Test
    void aBadTagIsRefusedWithWhy() {
        assertEquals("", LabTestSupport.tag(null));
        assertEquals("ab1", LabTestSupport.tag("ab1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LabTestSupport.tag("AB-1"));
        assertTrue(e.getMessage().contains("ROCECTL_LAB_TAG='AB-1'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LabTestSupport.tag("abcd"));
    }

    /** Every lab test's base name, cut for the longest tag, is still its own. */
    @Test
    void theTestsLabNamesStayDistinctWhenTagged() throws Exception {
        Pattern literal = Pattern.compile("(?:up|upSlurm)\\(\"([a-z0-9]+)\"|static final String NAME = \"([a-z0-9]+)\"");
        Set<String> bases = new HashSet<>();
        try (Stream<Path> s = Files.list(Path.of("src/test/java/io/rocectl/lab"))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = literal.matcher(Files.readString(p));
                while (m.find()) bases.add(m.group(1) != null ? m.group(1) : m.group(2));
            }
        }
        assertTrue(bases.size() >= 20, "the scan finds the lab tests' names: " + bases);
        Set<String> tagged = new HashSet<>();
        for (String b : bases) {
            assertTrue(tagged.add(LabTestSupport.named(b, "abc")), "two labs named " + LabTestSupport.named(b, "abc") + " once tagged");
        }
    }
}
