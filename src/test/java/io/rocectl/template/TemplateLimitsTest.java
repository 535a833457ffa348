package io.rocectl.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every expansion a template can make is exact or an error naming the limit (issue 31):
 * {@code range(5000)} was 1,000 items, {@code 'x' * n} stopped at a million, and paddings and
 * products ran out of memory.
 */
class TemplateLimitsTest {
    private static Object render(String t) {
        return Templar.get().render(t, Map.of());
    }

    private static long num(Object o) {
        return Long.parseLong(String.valueOf(o));
    }

    private static void refused(String t, String... parts) {
        TemplateException e = assertThrows(TemplateException.class, () -> render(t), t);
        for (String p : parts) assertTrue(e.getMessage().contains(p), e.getMessage());
    }

    @Test
    void rangeIsExactAsPythons() {
        assertEquals(5000L, num(render("{{ range(5000) | list | length }}")));
        assertEquals(4999L, num(render("{{ range(5000) | last }}")));
        assertEquals((long) TemplateLimits.MAX_ITEMS, num(render("{{ range(1000000) | length }}")));
        assertEquals(List.of(10, 8, 6, 4, 2), render("{{ range(10, 0, -2) | list }}"));
        assertEquals(List.of(2, 5, 8), render("{{ range(2, 10, 3) | list }}"));
        assertEquals(List.of(), render("{{ range(-5) | list }}"));
        assertEquals("0,1,2,", render("{% for i in range(3) %}{{ i }},{% endfor %}"));
        assertEquals(1500L, num(render("{% set n = namespace(c=0) %}{% for i in range(1500) %}"
                + "{% set n.c = n.c + 1 %}{% endfor %}{{ n.c }}")));
    }

    @Test
    void rangeTooLargeToBuildIsAnErrorNamingTheLimit() {
        refused("{{ range(10**8) | list | length }}", "range(100000000) would have 100000000 items",
                "limit of 1000000 items");
        refused("{{ range(1000001) | length }}", "range(1000001) would have 1000001 items");
        refused("{{ range(0, 10, 0) | list }}", "must not be zero");
        refused("{{ range('a') | list }}", "cannot be interpreted as an integer");
    }

    @Test
    void productsAndNestedLoopsAreBoundedBeforeTheyAreBuilt() {
        assertEquals(6L, num(render("{{ [1,2,3] | product([1,2]) | list | length }}")));
        refused("{{ range(3000) | product(range(3000)) | list | length }}", "product would have 9000000 items");
        refused("{{ lookup('nested', range(3000), range(3000)) | length }}", "with_nested would have 9000000 items");
    }

    @Test
    void stringRepetitionIsExactOrRefused() {
        assertEquals(2_000_000L, num(render("{{ ('x' * 2000000) | length }}")));
        assertEquals("", render("{{ 'x' * 0 }}"));
        refused("{{ 'x' * (10**9) }}", "'x' * 1000000000 would be 1000000000 characters long",
                "limit of 16777216 characters");
        refused("{{ 'abcd' * 5000000 }}", "would be 20000000 characters long");
    }

    @Test
    void paddingWidthsAreBounded() {
        assertEquals("  ab  ", render("{{ 'ab' | center(6) }}"));
        refused("{{ 'ab' | center(1000000000) }}", "center(1000000000)");
        refused("{{ 'ab'.ljust(10**12) }}", "ljust(1000000000000)");
        refused("{{ 'ab'.zfill(10**12) }}", "zfill(1000000000000)");
        refused("{{ '%01000000000d' % 5 }}", "format width(1000000000)");
        refused("{{ '{:>1000000000}'.format(1) }}", "format width(1000000000)");
        refused("{{ {'a': [1]} | to_nice_json(indent=1000000000) }}", "to_nice_json indent(1000000000)");
        assertEquals("00042", render("{{ '%05d' % 42 }}"));
    }
}
