package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import io.rocectl.text.Shlex;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ShlexTest {
    @TestFactory
    Stream<DynamicTest> splitsLikePythonShlex() {
        return Fixtures.cases("shlex/cases.yaml").stream().map(c -> DynamicTest.dynamicTest(
                String.valueOf(c.get("in")), () -> check(c)));
    }

    private static void check(Map<String, Object> c) {
        String in = (String) c.get("in");
        if (c.containsKey("error")) {
            ModuleException e = assertThrows(ModuleException.class, () -> CommandRequest.argv(in));
            assertEquals(c.get("error"), e.getMessage());
        } else {
            assertEquals(c.get("out"), CommandRequest.argv(in));
        }
    }

    @org.junit.jupiter.api.Test
    void wordsRecordTheirSpans() {
        List<Shlex.Word> w = Shlex.words("a 'b c'  d", false);
        assertEquals(List.of(new Shlex.Word("a", 0, 1), new Shlex.Word("b c", 2, 7), new Shlex.Word("d", 9, 10)), w);
    }
}
