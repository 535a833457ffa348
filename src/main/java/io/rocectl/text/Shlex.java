package io.rocectl.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line into words the way Python's {@code shlex.split} (POSIX mode) does: blanks separate
 * words, single quotes keep everything literal, double quotes keep everything but {@code \"} and
 * {@code \\}, a backslash outside quotes escapes the next character. Nothing is expanded: no
 * variables, globs, pipes or redirections. With comments (how Ansible reads an INI host line,
 * {@code shlex.split(line, comments=True)}) a {@code #} outside quotes ends the word and the line.
 * Ansible's {@code command} module splits its free form without comments.
 */
public final class Shlex {
    private Shlex() {}

    /**
     * One word and where it came from.
     *
     * @param value the word after quote removal
     * @param start offset of its first character in the input (0-based column)
     * @param end   offset just past its last character
     */
    public record Word(String value, int start, int end) {}

    /** A line that cannot be split: an unterminated quote, or a backslash with nothing after it. */
    public static final class SplitException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final boolean quote;

        SplitException(boolean quote, String message) {
            super(message);
            this.quote = quote;
        }

        /** True for an unterminated quote (Python: "No closing quotation"), false for a trailing backslash ("No escaped character"). */
        public boolean unclosedQuote() {
            return quote;
        }
    }

    /** The words' values, without comments. */
    public static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        for (Word w : words(s, false)) out.add(w.value());
        return out;
    }

    /**
     * The words of {@code s}.
     *
     * @param comments whether {@code #} outside quotes starts a comment
     * @throws SplitException for an unterminated quote (naming the quote's 1-based column) or a
     *                        trailing backslash
     */
    public static List<Word> words(String s, boolean comments) {
        List<Word> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            while (i < n && isBlank(s.charAt(i))) i++;
            if (i >= n || comments && s.charAt(i) == '#') break;
            int start = i;
            StringBuilder w = new StringBuilder();
            boolean rest = true;
            while (i < n && !isBlank(s.charAt(i))) {
                char c = s.charAt(i);
                if (comments && c == '#') {
                    rest = false;
                    break;
                }
                if (c == '\'') {
                    int close = s.indexOf('\'', i + 1);
                    if (close < 0) throw new SplitException(true, "no closing quotation (') for the quote at column " + (i + 1));
                    w.append(s, i + 1, close);
                    i = close + 1;
                } else if (c == '"') {
                    int open = i++;
                    boolean closed = false;
                    while (i < n) {
                        char d = s.charAt(i);
                        if (d == '"') {
                            closed = true;
                            i++;
                            break;
                        }
                        if (d == '\\' && i + 1 < n && (s.charAt(i + 1) == '"' || s.charAt(i + 1) == '\\')) {
                            w.append(s.charAt(i + 1));
                            i += 2;
                        } else {
                            w.append(d);
                            i++;
                        }
                    }
                    if (!closed) throw new SplitException(true, "no closing quotation (\") for the quote at column " + (open + 1));
                } else if (c == '\\') {
                    if (i + 1 >= n) throw new SplitException(false, "no character after '\\'");
                    w.append(s.charAt(i + 1));
                    i += 2;
                } else {
                    w.append(c);
                    i++;
                }
            }
            out.add(new Word(w.toString(), start, i));
            if (!rest) break;
        }
        return out;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
