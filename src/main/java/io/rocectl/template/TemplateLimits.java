package io.rocectl.template;

/**
 * What one template expression may build: expansions are exact or an error naming the limit,
 * never a silently shorter result (Jinjava's own {@code range} stops at 1,000 items without a
 * word) and never an allocation that ends in OutOfMemoryError.
 */
final class TemplateLimits {
    /** Items of a list built by an expansion: {@code range}, {@code product}, {@code lookup('sequence')}. */
    static final int MAX_ITEMS = 1_000_000;
    /** Characters of a string built by repetition ({@code 'x' * n}) or padding (center, ljust, format widths, indent). */
    static final int MAX_CHARS = 16 * 1024 * 1024;

    private TemplateLimits() {}

    /** {@code n} items of {@code what}, refused past {@link #MAX_ITEMS}. */
    static int items(String what, long n) {
        if (n > MAX_ITEMS || n < 0) {
            throw new TemplateException(what + " would have " + (n < 0 ? "more than " + Long.MAX_VALUE : Long.toString(n))
                    + " items, more than the limit of " + MAX_ITEMS + " items a template may build");
        }
        return (int) n;
    }

    /** A string of {@code n} characters built by {@code what}, refused past {@link #MAX_CHARS}. */
    static int chars(String what, long n) {
        if (n > MAX_CHARS || n < 0) {
            throw new TemplateException(what + " would be " + (n < 0 ? "more than " + Long.MAX_VALUE : Long.toString(n))
                    + " characters long, more than the limit of " + MAX_CHARS + " characters a template may build");
        }
        return (int) n;
    }

    /** A padding width (a Number, or digits) for {@code what}, refused past {@link #MAX_CHARS}. */
    static int width(String what, Object n) {
        long w;
        if (n instanceof java.math.BigInteger b) w = b.bitLength() < 63 ? b.longValue() : b.signum() < 0 ? 0 : -1;
        else if (n instanceof Number x) w = x.longValue();
        else {
            String t = String.valueOf(n).strip();
            if (!t.matches("[0-9]*")) throw new TemplateException(what + ": '" + t + "' is not a number");
            w = t.length() > 18 ? -1 : t.isEmpty() ? 0 : Long.parseLong(t);
        }
        return w <= 0 && w != -1 ? 0 : chars(what + "(" + (w == -1 ? n : w) + ")", w);
    }

    /** {@code a * b} for sizes, {@code -1} when it overflows a long. */
    static long times(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return -1;
        }
    }
}
