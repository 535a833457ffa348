package io.rocectl.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A POSIX sh script kept as a resource beside the class that runs it
 * ({@code src/main/resources/io/rocectl/PACKAGE/NAME.sh}), so shellcheck checks it
 * ({@code ShellResourcesTest}); run it with {@link Cmd#script}, its arguments are $1...
 */
public final class ShellResource {
    private ShellResource() {}

    /**
     * The text of resource {@code name} in {@code owner}'s package, without its comment lines
     * ({@link #withoutCommentLines}); a missing one is a build error.
     */
    public static String text(Class<?> owner, String name) {
        return withoutCommentLines(source(owner, name));
    }

    /** The resource as it is in the source tree, comments and all. */
    static String source(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException(name + " missing beside " + owner.getName());
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code text} without the lines that hold only a comment (blanks, then {@code #}): they are
     * for the reader of the source, and would otherwise travel to every host with every command
     * (commit-confirm.sh is more than half comments). Comments after code stay. Sound for
     * rocectl's scripts, where no such line is inside a quoted string or a here-document
     * ({@code ShellResourcesTest} checks every resource for that).
     */
    static String withoutCommentLines(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0, n = text.length();
        while (i < n) {
            int eol = text.indexOf('\n', i);
            int end = eol < 0 ? n : eol + 1;
            int j = i;
            while (j < end && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) j++;
            if (j >= end || text.charAt(j) != '#') out.append(text, i, end);
            i = end;
        }
        return out.toString();
    }
}
