package io.rocectl.inventory;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an INI host line into words like Python's {@code shlex.split(line, comments=True)} in
 * POSIX mode, which is what Ansible uses: whitespace separates words, single quotes keep text
 * literally, double quotes allow {@code \"} and {@code \\}, a backslash outside quotes escapes
 * the next character, and {@code #} outside quotes starts a comment. Each word records the
 * 0-based column where it starts.
 */
final class Shlex {
    private Shlex() {}

    /** One word and the column (0-based) where it starts in the line. */
    record Word(String text, int column) {}

    /** @throws IllegalArgumentException for an unterminated quote or a trailing backslash */
    static List<Word> split(String line) {
        List<Word> words = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int start = -1;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                if (start >= 0) {
                    words.add(new Word(cur.toString(), start));
                    cur.setLength(0);
                    start = -1;
                }
                i++;
                continue;
            }
            if (c == '#') break;
            if (start < 0) start = i;
            if (c == '\\') {
                if (i + 1 >= line.length()) throw new IllegalArgumentException("no character after '\\'");
                cur.append(line.charAt(i + 1));
                i += 2;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) throw new IllegalArgumentException("no closing quotation (') for the quote at column " + (i + 1));
                cur.append(line, i + 1, end);
                i = end + 1;
            } else if (c == '"') {
                int k = i + 1;
                while (true) {
                    if (k >= line.length()) {
                        throw new IllegalArgumentException("no closing quotation (\") for the quote at column " + (i + 1));
                    }
                    char d = line.charAt(k);
                    if (d == '"') break;
                    if (d == '\\' && k + 1 < line.length() && (line.charAt(k + 1) == '"' || line.charAt(k + 1) == '\\')) {
                        cur.append(line.charAt(k + 1));
                        k += 2;
                    } else {
                        cur.append(d);
                        k++;
                    }
                }
                i = k + 1;
            } else {
                cur.append(c);
                i++;
            }
        }
        if (start >= 0) words.add(new Word(cur.toString(), start));
        return words;
    }
}
