package io.rocectl.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one Python literal reader, with the shapes its callers choose (the inventory's table of
 * values is in IniValuesTest; here what the shapes decide and what only templates meet).
 */
class PyLiteralTest {
    /** A tuple marked as such, ints as Long, keys as text, no sets or bytes: as the template engine. */
    private record Tuple(List<Object> items) {}

    private static final PyLiteral.Shapes STRICT = new PyLiteral.Shapes(BigInteger::longValue, Tuple::new, null,
            String::valueOf, false);
    private static final PyLiteral.Shapes LOOSE = new PyLiteral.Shapes(v -> v, l -> l, l -> l, k -> k, true);

    private static Object eval(String s, PyLiteral.Shapes shapes) {
        return PyLiteral.evalOr(s, "FALLBACK", shapes);
    }

    @Test
    void theCallerShapesTuplesIntsKeysAndSets() {
        assertEquals(new Tuple(new ArrayList<>(List.of(1L, 2L))), eval("(1, 2)", STRICT));
        assertEquals(new Tuple(new ArrayList<>(List.of(List.of(1L), List.of(2L)))), eval("[1], [2]", STRICT));
        assertEquals(Map.of("1", "a"), eval("{1: 'a'}", STRICT));
        assertEquals("FALLBACK", eval("{1, 2}", STRICT));
        assertEquals(List.of(BigInteger.ONE, BigInteger.TWO), eval("{1, 2, 1}", LOOSE));
        assertEquals(-16L, eval("-(0x10)", STRICT));
    }

    @Test
    void bytesAreKeptAsBytesOnlyWhereTheCallerTakesThem() {
        assertEquals("FALLBACK", eval("[b'x']", STRICT));
        Object v = eval("b'\\xc3\\xa9' b'!'", LOOSE);
        assertInstanceOf(PyLiteral.Bytes.class, v);
        assertArrayEquals(new byte[] {(byte) 0xc3, (byte) 0xa9, '!'}, ((PyLiteral.Bytes) v).value());
        assertEquals("é!", ((PyLiteral.Bytes) v).utf8());
        assertEquals(null, new PyLiteral.Bytes(new byte[] {(byte) 0xff}).utf8());
        assertEquals("FALLBACK", eval("b'x' 'y'", LOOSE), "bytes and text do not join");
    }

    @Test
    void lineBreaksInsideBracketsAsInRenderedJson() {
        assertEquals(List.of(1L, Map.of("a", List.of())), eval("[\n    1,\n    {\n        \"a\": []\n    }\n]\n", STRICT));
        assertEquals("FALLBACK", eval("1\n2", STRICT), "a line break ends the expression at the top level");
        assertEquals(List.of(1L), eval("[1,  # one\n]", STRICT));
    }

    @Test
    void namesAndSignedNonNumbersAreNoLiterals() {
        for (String s : List.of("inf", "nan", "-(-1)", "--1", "-(1,)", "-(True)", "yes", "1 + 2")) {
            assertEquals("FALLBACK", eval(s, STRICT), s);
        }
        assertEquals(Double.POSITIVE_INFINITY, eval("1e999", STRICT));
        assertEquals(-1.5, eval("- ( 1.5 )", STRICT));
    }
}
