package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LineInFilePlanTest {
    @TestFactory
    Stream<DynamicTest> plansFromFixtures() {
        return Fixtures.cases("lineinfile/cases.yaml").stream()
                .map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> check(c)));
    }

    @SuppressWarnings("unchecked")
    private static void check(Map<String, Object> c) {
        String before = (String) c.get("before");
        Map<String, Object> args = (Map<String, Object>) c.get("args");
        if (c.containsKey("error")) {
            ModuleException e = assertThrows(ModuleException.class,
                    () -> LineInFilePlan.plan(before, LineInFileArgs.from(args)));
            assertEquals(c.get("error"), e.getMessage());
            return;
        }
        LineInFilePlan p = LineInFilePlan.plan(before, LineInFileArgs.from(args));
        String after = (String) c.get("after");
        if (after == null) {
            assertNull(p.content(), "expected no change, got " + p.content());
        } else {
            assertEquals(after, p.content());
            // idempotent: planning again on the result changes nothing
            assertNull(LineInFilePlan.plan(after, LineInFileArgs.from(args)).content(), "second plan not empty");
        }
        if (c.containsKey("msg")) assertEquals(c.get("msg"), p.msg());
    }
}
