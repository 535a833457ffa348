package io.rocectl.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.text.Shlex;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** INI value typing (Python literals) and host-line splitting (POSIX shlex), table-driven. */
class IniValuesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> literals() {
        return rows("literals/pyliteral.tsv");
    }

    static Stream<Arguments> lines() {
        return rows("literals/shlex.tsv");
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @MethodSource("literals")
    void typesLikePythonLiteralEval(String text, String json) throws Exception {
        assertEquals(JSON.readTree(json), JSON.valueToTree(IniInventoryParser.value(text)));
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("lines")
    void splitsLikeShlex(String line, String expected) {
        if (expected.startsWith("ERROR: ")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shlex.words(line, true));
            assertEquals(expected.substring(7), e.getMessage());
            return;
        }
        String got = Shlex.words(line, true).stream().map(w -> w.value() + "@" + (w.start() + 1))
                .collect(Collectors.joining(" | "));
        assertEquals(expected, got);
    }

    private static Stream<Arguments> rows(String file) {
        List<Arguments> rows = new ArrayList<>();
        for (String line : Fixtures.read(file).split("\n")) {
            if (line.startsWith("# ") && line.contains("<TAB>")) continue;
            String[] cols = line.split("\t", 2);
            if (cols.length < 2) continue;
            rows.add(Arguments.of(cols[0], cols[1]));
        }
        return rows.stream();
    }
}
