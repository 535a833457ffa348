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

    /** The text of resource {@code name} in {@code owner}'s package; a missing one is a build error. */
    public static String text(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException(name + " missing beside " + owner.getName());
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
