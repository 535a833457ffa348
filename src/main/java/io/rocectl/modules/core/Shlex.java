package io.rocectl.modules.core;

import io.rocectl.module.ModuleException;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command line into words the way Python's {@code shlex.split} (POSIX mode) does, which
 * is how Ansible's {@code command} module reads its free-form argument: blanks separate words,
 * single quotes keep everything literal, double quotes keep everything but {@code \"} and
 * {@code \\}, a backslash outside quotes escapes the next character. Nothing is expanded: no
 * variables, globs, pipes or redirections.
 */
public final class Shlex {
    private Shlex() {}

    /**
     * One word and where it came from.
     *
     * @param value the word after quote removal
     * @param start offset of its first character in the input
     * @param end   offset just past its last character
     */
    public record Word(String value, int start, int end) {}

    public static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        for (Word w : words(s)) out.add(w.value());
        return out;
    }

    public static List<Word> words(String s) {
        List<Word> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            while (i < n && isBlank(s.charAt(i))) i++;
            if (i >= n) break;
            int start = i;
            StringBuilder w = new StringBuilder();
            while (i < n && !isBlank(s.charAt(i))) {
                char c = s.charAt(i);
                if (c == '\'') {
                    int close = s.indexOf('\'', i + 1);
                    if (close < 0) throw new ModuleException("No closing quotation in: " + s);
                    w.append(s, i + 1, close);
                    i = close + 1;
                } else if (c == '"') {
                    i++;
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
                    if (!closed) throw new ModuleException("No closing quotation in: " + s);
                } else if (c == '\\') {
                    if (i + 1 >= n) throw new ModuleException("No escaped character in: " + s);
                    w.append(s.charAt(i + 1));
                    i += 2;
                } else {
                    w.append(c);
                    i++;
                }
            }
            out.add(new Word(w.toString(), start, i));
        }
        return out;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
