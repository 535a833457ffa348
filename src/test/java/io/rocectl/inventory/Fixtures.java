package io.rocectl.inventory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates fixture files under src/test/resources/fixtures/inventory. */
final class Fixtures {
    private Fixtures() {}

    static Path dir() {
        try {
            return Path.of(Fixtures.class.getResource("/fixtures/inventory").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path path(String relative) {
        return dir().resolve(relative);
    }

    static String read(String relative) {
        try {
            return Files.readString(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
