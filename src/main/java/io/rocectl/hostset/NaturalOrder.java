package io.rocectl.hostset;

import java.util.Comparator;

/**
 * Orders names the way people read them: {@code gpu2 < gpu10}, {@code gpu02 < gpu10}. Digit runs
 * compare by numeric value (then fewer leading zeros first), other runs as text; a final plain
 * string comparison keeps the order consistent with {@code equals}.
 */
public final class NaturalOrder implements Comparator<String> {
    /** The shared instance. */
    public static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {}

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            boolean da = isDigit(a.charAt(i));
            boolean db = isDigit(b.charAt(j));
            int ei = runEnd(a, i, da);
            int ej = runEnd(b, j, db);
            int c;
            if (da && db) {
                c = compareDigits(a.substring(i, ei), b.substring(j, ej));
            } else {
                c = a.substring(i, ei).compareTo(b.substring(j, ej));
            }
            if (c != 0) return c;
            i = ei;
            j = ej;
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    /** Numeric value first, then the shorter spelling (fewer leading zeros). */
    static int compareDigits(String x, String y) {
        String sx = stripZeros(x);
        String sy = stripZeros(y);
        int c = Integer.compare(sx.length(), sy.length());
        if (c == 0) c = sx.compareTo(sy);
        if (c == 0) c = Integer.compare(x.length(), y.length());
        return c;
    }

    static String stripZeros(String digits) {
        int k = 0;
        while (k < digits.length() - 1 && digits.charAt(k) == '0') k++;
        return digits.substring(k);
    }

    private static int runEnd(String s, int from, boolean digits) {
        int k = from;
        while (k < s.length() && isDigit(s.charAt(k)) == digits) k++;
        return k;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
