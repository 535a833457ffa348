package io.rocectl.exec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TagFilterTest {
    private static Set<String> set(String s) {
        return s == null || s.isBlank() ? Set.of() : Set.of(s.split(" "));
    }

    @ParameterizedTest(name = "tags [{0}] --tags [{1}] --skip-tags [{2}] -> {3}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "-          | -        | -     | true",
        "fix        | -        | -     | true",
        "fix        | probe    | -     | false",
        "fix probe  | probe    | -     | true",
        "always     | probe    | -     | true",
        "always     | -        | always| false",
        "never      | -        | -     | false",
        "never fix  | fix      | -     | true",
        "fix        | all      | -     | true",
        "fix        | fix      | fix   | false",
        "-          | fix      | -     | false",
    })
    void ansibleTagSelection(String tags, String only, String skip, boolean expected) {
        assertEquals(expected, TagFilter.selected(set(tags), set(only), set(skip)));
    }
}
