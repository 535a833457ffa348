package io.rocectl.yaml;

import io.rocectl.error.InputError;
import io.rocectl.testing.Await;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one YAML reader's limits, each refused with a line. */
class YamlReaderTest {
    /** Nine levels of nine aliases: 81 aliases, but 9^9 values once expanded. */
    static String bomb(String indent) {
        StringBuilder sb = new StringBuilder(indent + "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i <= 8; i++) {
            sb.append(indent).append("l").append(i).append(": &l").append(i).append(" [");
            for (int j = 0; j < 9; j++) sb.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
            sb.append("]\n");
        }
        return sb.toString();
    }

    @Test
    void aliasBombIsRefusedQuicklyAtItsLine() {
        InputError e = assertTimeoutPreemptively(Await.LONG,
                () -> assertThrows(InputError.class, () -> YamlReader.parse("bomb.yaml", bomb(""))));
        assertTrue(e.getMessage().contains("alias bomb"), e.getMessage());
        // l0..l5 expand to at most 597871 values; l6 (line 7) is the first above the limit
        assertEquals(7, e.line(), e.oneLine());
    }

    @Test
    void tooManyAliasesNamesTheLine() {
        StringBuilder sb = new StringBuilder("a: &a [x]\nb:\n");
        for (int i = 0; i < YamlReader.MAX_ALIASES + 1; i++) sb.append("  - *a\n");
        InputError e = assertThrows(InputError.class, () -> YamlReader.parse("f.yaml", sb.toString()));
        assertEquals(3 + YamlReader.MAX_ALIASES, e.line(), e.oneLine());
        assertTrue(e.getMessage().contains("aliases"), e.getMessage());
    }

    @Test
    void deepNestingNamesTheLine() {
        String deep = "x: 1\ny: " + "[".repeat(500) + "]".repeat(500) + "\n";
        InputError e = assertThrows(InputError.class, () -> YamlReader.parse("deep.yaml", deep));
        assertEquals(2, e.line(), e.oneLine());
        assertTrue(e.getMessage().contains("nested more than 100 levels"), e.getMessage());
        StringBuilder block = new StringBuilder();
        for (int i = 0; i < 150; i++) block.append("  ".repeat(i)).append("k").append(i).append(":\n");
        InputError b = assertThrows(InputError.class, () -> YamlReader.parse("deep.yaml", block.toString()));
        assertEquals(101, b.line(), b.oneLine());
    }

    @Test
    void invalidUtf8NamesLineAndColumn() {
        byte[] bytes = "a: 1\nb: caf\u00e9\nc: x".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        InputError e = assertThrows(InputError.class, () -> YamlReader.decode(bytes, "latin1.yaml"));
        assertEquals("latin1.yaml:2:7: invalid UTF-8 (byte 0xe9): the file must be UTF-8 text", e.oneLine());
    }

    @Test
    void timestampsAsPyYamlConstructsThemAndYamlOneOneBooleans() {
        Object v = YamlReader.parse("t.yaml", "when: 2024-01-02\nat: 2001-12-14t21:59:43.10-05:00\nenabled: yes\nn: 010\n"
                + "z: 2001-1-4 1:02:03 Z\nq: '2024-01-02'\n").value();
        Map<?, ?> m = assertInstanceOf(Map.class, v);
        Timestamp day = assertInstanceOf(Timestamp.class, m.get("when"));
        assertEquals("2024-01-02", day.toString());
        assertEquals("datetime.date(2024, 1, 2)", day.repr());
        Timestamp at = assertInstanceOf(Timestamp.class, m.get("at"));
        assertEquals("2001-12-14 21:59:43.100000-05:00", at.toString(), "Python's str()");
        assertEquals("2001-12-14T21:59:43.100000-05:00", at.iso(), "Python's isoformat()");
        assertEquals("datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone("
                + "datetime.timedelta(days=-1, seconds=68400)))", at.repr());
        Timestamp z = assertInstanceOf(Timestamp.class, m.get("z"));
        assertEquals("2001-01-04T01:02:03+00:00", z.iso());
        assertEquals("datetime.datetime(2001, 1, 4, 1, 2, 3, tzinfo=datetime.timezone.utc)", z.repr());
        assertEquals("2024-01-02", m.get("q"), "a quoted scalar stays a string");
        assertFalse(Timestamp.pyEquals(day, "2024-01-02"), "a date never equals a string, as in Python");
        assertTrue(Timestamp.pyEquals(Timestamp.parse("2001-12-14 21:59:43.10 -5"), Timestamp.parse("2001-12-15T02:59:43.1Z")));
        assertFalse(Timestamp.pyEquals(Timestamp.parse("2001-12-14 21:59:43"), Timestamp.parse("2001-12-14 21:59:43Z")));
        assertEquals(Boolean.TRUE, m.get("enabled"));
        assertEquals(8, m.get("n"), "YAML 1.1 octal, as Ansible reads it");
    }

    @Test
    void aTimestampPythonRefusesIsAnErrorAtItsLine() {
        InputError month = assertThrows(InputError.class, () -> YamlReader.parse("m.yaml", "a: 1\nb: 2001-13-01\n").value());
        assertTrue(month.oneLine().startsWith("m.yaml:2:4: bad value: '2001-13-01' is not a valid date"), month.oneLine());
        InputError zone = assertThrows(InputError.class, () -> YamlReader.parse("z.yaml", "b: [2001-12-14 1:00:00 +24]\n").value());
        assertTrue(zone.oneLine().startsWith("z.yaml:1:5: bad value: '2001-12-14 1:00:00 +24': a time zone"), zone.oneLine());
    }

    @Test
    void duplicateKeysAndSyntaxErrorsHaveLines() {
        InputError d = assertThrows(InputError.class, () -> YamlReader.parse("d.yaml", "a: 1\nb:\n  c: 1\n  c: 2\n"));
        assertEquals("d.yaml:4:3: duplicate key 'c'", d.oneLine());
        InputError s = assertThrows(InputError.class, () -> YamlReader.parse("s.yaml", "a: [1, 2\nb: 3\n"));
        assertTrue(s.line() >= 2 && s.getMessage().startsWith("YAML syntax error"), s.oneLine());
    }

    @Test
    void ordinaryAnchorsAndMergeKeysStillWork() {
        Object v = YamlReader.parse("m.yaml", "base: &b {x: 1, y: [1, 2]}\nk:\n  <<: *b\n  y: [3]\nl: [*b, *b]\n").value();
        Map<?, ?> m = assertInstanceOf(Map.class, v);
        assertEquals(Map.of("x", 1, "y", List.of(3)), m.get("k"));
        assertEquals(2, ((List<?>) m.get("l")).size());
    }
}
