import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Build step (pom.xml, before jdeb): {@code java Gzip.java IN OUT} writes IN gzip-compressed at
 * the best level to OUT, as {@code gzip -9n} does (no name, time 0: the same bytes on every
 * build). Used for the .deb's /usr/share/doc/rocectl/changelog.gz.
 */
public final class Gzip {
    public static void main(String[] args) throws IOException {
        if (args.length != 2) throw new IllegalArgumentException("usage: java Gzip.java IN OUT");
        Path out = Path.of(args[1]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(out)) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            o.write(Files.readAllBytes(Path.of(args[0])));
        }
    }
}
