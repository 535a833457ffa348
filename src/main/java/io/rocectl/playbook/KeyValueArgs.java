package io.rocectl.playbook;

import io.rocectl.error.InputError;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses Ansible's {@code key=value key2="quoted value"} argument strings. */
final class KeyValueArgs {
    private KeyValueArgs() {}

    /** @param at an error positioned at the string, whose place is reused for parse errors */
    static Map<String, String> parse(String text, InputError at) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(text.charAt(i))) i++;
            if (i >= n) break;
            int eq = text.indexOf('=', i);
            int sp = indexOfSpace(text, i);
            if (eq < 0 || (sp >= 0 && sp < eq)) {
                String tok = text.substring(i, sp < 0 ? n : sp);
                throw new InputError(at.file(), at.line(), at.column(), "expected key=value, got '" + tok + "'");
            }
            String key = text.substring(i, eq).trim();
            i = eq + 1;
            StringBuilder val = new StringBuilder();
            char quote = 0;
            while (i < n) {
                char c = text.charAt(i);
                if (quote != 0) {
                    if (c == quote) quote = 0;
                    else if (c == '\\' && quote == '"' && i + 1 < n) val.append(text.charAt(++i));
                    else val.append(c);
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (Character.isWhitespace(c)) {
                    break;
                } else {
                    val.append(c);
                }
                i++;
            }
            if (quote != 0) throw new InputError(at.file(), at.line(), at.column(), "unterminated quote in '" + text + "'");
            out.put(key, val.toString());
        }
        return out;
    }

    private static int indexOfSpace(String s, int from) {
        for (int i = from; i < s.length(); i++) if (Character.isWhitespace(s.charAt(i))) return i;
        return -1;
    }
}
