package io.rocectl.template;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The simple expressions evaluated without Jinjava give what Jinjava gives, to the type, for
 * every kind of value the variable may hold (and the same error where there is one); what is not
 * simple goes to the engine.
 */
class SimpleExprTest {
    final Templar templar = Templar.get();

    static final List<String> SIMPLE = List.of(
            "x", "x | bool", "x|bool", "x | default(true) | bool", "x | default(false) | bool", "x | d(true) | bool",
            "x | default(0)", "x | default(7)", "x | default('all')", "x | default(\"rail\")", "x | default('')",
            "x | default(true, true)", "x | default('yes', true) | bool", "x | default(1) | default(2)",
            "x | bool | default(false)", "true", "False", "0", "42", "'text'", "'yes' | bool", "0 | bool", "1 | bool",
            "True | default(false)", "  x  |  default( 3 )  ", "x\n| default(1)", "_x9 | default(1)");

    static final List<String> NOT_SIMPLE = List.of(
            "x.y", "x['y']", "x()", "x | int", "x | default(y)", "x | default(1, 'a')", "x | default(-1)",
            "x | default(1.5)", "x | default(01)", "x | default(none)", "x | default(omit)", "not x", "x and y",
            "x == 1", "x is defined", "x | default(1) |", "| bool", "x y", "'a\\'b'", "omit", "loop", "none",
            "None", "empty", "mod | default(1)", "x | default", "x | default()", "x | default(1,)",
            "x | default(true, 1)", "1_000", "99999999999999999999", "ä | default(1)", "");

    /** Values a variable may hold: plain scalars of each type, and what must go to the engine. */
    static List<Object> values() {
        List<Object> v = new ArrayList<>(Arrays.asList(null, true, false, 0, 1, 2, -1, 0L, 1L, 5_000_000_000L, "", "yes",
                "no", "true", "True", "false", "0", "1", "on", "off", "y", "t", " yes ", "all", "{{ y }}", "a'b",
                1.0, 0.5, List.of(), List.of(1), Map.of(), Map.of("a", 1)));
        return v;
    }

    @Test
    void simpleExpressionsAreParsedAndOthersAreNot() {
        for (String e : SIMPLE) assertNotNull(SimpleExpr.parse(e), e);
        for (String e : NOT_SIMPLE) assertNull(SimpleExpr.parse(e), e);
    }

    @Test
    void everySimpleExpressionEvaluatesAsTheEngineDoesForEveryValue() {
        int simple = 0;
        for (String expr : SIMPLE) {
            List<Map<String, Object>> bindings = new ArrayList<>();
            bindings.add(Map.of()); // x undefined
            for (Object v : values()) {
                Map<String, Object> m = new HashMap<>();
                m.put("x", v);
                m.put("_x9", v);
                m.put("y", "other");
                bindings.add(m);
            }
            for (Map<String, Object> vars : bindings) {
                Object fast = SimpleExpr.parse(expr).eval(vars);
                Object byEngine;
                String engineError = null;
                try {
                    byEngine = templar.evalByEngine(expr, vars);
                } catch (TemplateException e) {
                    byEngine = null;
                    engineError = e.getMessage();
                }
                String where = expr + " with " + vars;
                if (fast == SimpleExpr.ENGINE) {
                    Object x = vars.get("x");
                    boolean scalar = x == null || x instanceof String || x instanceof Boolean || x instanceof Integer || x instanceof Long;
                    // the engine only where the value is not a plain scalar or the variable is undefined
                    assertTrue(!scalar || !vars.containsKey("x"), "needlessly sent to the engine: " + where);
                    continue;
                }
                simple++;
                if (engineError != null) fail("the engine fails (" + engineError + ") but the simple path gives " + fast + ": " + where);
                Object plain = Py.plain(fast);
                assertEquals(byEngine, plain, where);
                assertSame(byEngine == null ? null : byEngine.getClass(), plain == null ? null : plain.getClass(), where);
                // and through the public entry, which takes the simple path
                assertEquals(byEngine, templar.eval(expr, vars), where);
            }
        }
        assertTrue(simple > 500, "compared " + simple);
    }

    @Test
    void anUndefinedVariableWithoutDefaultIsTheEnginesError() {
        Map<String, Object> none = Map.of();
        assertSame(SimpleExpr.ENGINE, SimpleExpr.parse("x | bool").eval(none));
        assertSame(SimpleExpr.ENGINE, SimpleExpr.parse("x").eval(none));
        TemplateException e = org.junit.jupiter.api.Assertions.assertThrows(TemplateException.class, () -> templar.eval("x | bool", none));
        TemplateException byEngine = org.junit.jupiter.api.Assertions.assertThrows(TemplateException.class,
                () -> templar.evalByEngine("x | bool", none));
        assertEquals(byEngine.getMessage(), e.getMessage());
        assertTrue(e.getMessage().contains("undefined variable x"), e.getMessage());
    }

    @Test
    void conditionsAndSingleExpressionTemplatesTakeTheSamePath() {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("roce_nccl", "no");
        assertFalse(templar.condition("roce_nccl | default(true) | bool", vars));
        assertTrue(templar.condition("rdma_irq | default(true) | bool", vars));
        assertEquals("0", templar.render("{{ roce_verify_sample | default(0) }}", vars), "as before: text, not a lone variable");
        assertEquals("all", templar.render("{{ roce_probe_pairs | default('all') }}", vars));
        vars.put("roce_verify_sample", 4);
        assertEquals("4", templar.render("{{ roce_verify_sample | default(0) }}", vars));
        // a template of the inventory, rendered on lookup: the engine's
        vars.put("roce_probe_pairs", templar.deferred("{{ 'ra' ~ 'il' }}", vars));
        assertEquals("rail", templar.render("{{ roce_probe_pairs | default('all') }}", vars));
        // load-time checks of simple expressions need no engine and refuse nothing they should not
        templar.checkCondition("x | default(false) | bool");
        templar.checkTemplate("{{ x | d('y') }}");
        org.junit.jupiter.api.Assertions.assertThrows(TemplateException.class, () -> templar.checkCondition("x | default(1"));
        org.junit.jupiter.api.Assertions.assertThrows(TemplateException.class, () -> templar.checkCondition("x | nosuchfilter"));
    }
}
