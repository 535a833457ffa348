package io.rocectl.fact;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Numbers a host printed, checked against the range of what they stand for before anything is
 * planned from them: a prefix length of 4294967320 is not /24 (what an int keeps of it) and 1e20
 * is no length at all. A number out of its range, or text that is no number where one is due, is a
 * {@link FactParseException} naming the field and the value (the host's read then fails with its
 * name), never a wrapped, truncated or default value.
 */
final class HostNumbers {
    /** A prefix length of IPv4: 0..32. */
    static final long PREFIX_MAX = 32;
    /** Largest value rocectl keeps in an int (interface index, MTU, rule priority, metric, table id). */
    static final long INT_MAX = Integer.MAX_VALUE;

    private HostNumbers() {}

    /**
     * The integer value of a JSON value from {@code ip -j} ({@link JsonReader}'s Long, BigInteger,
     * Double, or text holding a number), {@code fallback} when missing or null; a fraction is cut
     * off (as before), a value outside {@code min..max} or anything else is refused.
     */
    static int json(String field, Object v, int fallback, long min, long max) {
        if (v == null || v == JsonReader.NULL) return fallback;
        BigDecimal d;
        if (v instanceof Long l) d = BigDecimal.valueOf(l);
        else if (v instanceof BigInteger b) d = new BigDecimal(b);
        else if (v instanceof Double x && x.isInfinite()) {
            throw new FactParseException(field + " " + x + " is out of range (" + min + ".." + max + ")");
        } else if (v instanceof Double x && !x.isNaN()) d = BigDecimal.valueOf(x);
        else if (v instanceof String s) return text(field, s, min, max);
        else throw new FactParseException(field + " " + IpJson.text(v, "?") + " is not a number");
        return inRange(field, d, IpJson.text(v), min, max);
    }

    /** The integer in {@code text} (blanks around it allowed; a fraction cut off), within {@code min..max}. */
    static int text(String field, String text, long min, long max) {
        String t = text.strip();
        BigDecimal d;
        try {
            // BigDecimal reads any length and exponent exactly: no overflow on the way in
            if (t.length() > 64) throw new NumberFormatException();
            d = new BigDecimal(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException e) {
            throw new FactParseException(field + " '" + shorten(t) + "' is not a number");
        }
        return inRange(field, d, t, min, max);
    }

    private static int inRange(String field, BigDecimal d, String shown, long min, long max) {
        // more than 19 digits before the point is out of any range here (and 1e999999999 is not expanded)
        BigInteger whole = d.signum() == 0 || d.precision() - d.scale() <= 19 ? d.toBigInteger() : null;
        if (whole == null || whole.compareTo(BigInteger.valueOf(min)) < 0 || whole.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new FactParseException(field + " " + shorten(shown) + " is out of range (" + min + ".." + max + ")");
        }
        return whole.intValueExact();
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
