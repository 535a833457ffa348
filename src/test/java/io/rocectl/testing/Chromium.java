package io.rocectl.testing;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's headless Chromium, for tests that load a generated page in a real browser: the DOM
 * after the page's scripts ran ({@code --dump-dom}) and a screenshot. Runs as root with
 * {@code --no-sandbox}, with a fresh {@code --user-data-dir} each time, deleted afterwards; a run
 * past its deadline is killed by PID, its child processes first.
 */
public final class Chromium {
    /** Generous: a cold start on a loaded 2-core machine takes seconds. */
    static final int TIMEOUT_SECONDS = 120;

    private Chromium() {}

    /** The chromium binary, or null. */
    public static String binary() {
        for (String b : List.of("chromium", "chromium-browser")) {
            if (Proc.onPath(b)) return b;
        }
        return null;
    }

    /** Skips the test, with the reason printed, where Debian's chromium is not installed. */
    public static void assumeInstalled() {
        boolean there = binary() != null;
        if (!there) System.out.println("SKIPPED browser test: chromium is not installed (apt-get install chromium; .ci/run does)");
        Assumptions.assumeTrue(there, "chromium is not installed (apt-get install chromium)");
    }

    /** The page's DOM as serialised after its scripts ran. */
    public static String dumpDom(Path page) throws IOException {
        Path out = Files.createTempFile("rocectl-dom", ".html");
        try {
            run(List.of("--dump-dom", page.toUri().toString()), out);
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** A screenshot of the page in a window of that size. */
    public static BufferedImage screenshot(Path page, int width, int height) throws IOException {
        Path dir = Files.createTempDirectory("rocectl-shot");
        Path png = dir.resolve("page.png");
        try {
            run(List.of("--hide-scrollbars", "--window-size=" + width + "," + height, "--screenshot=" + png,
                    page.toUri().toString()), null);
            if (!Files.isRegularFile(png)) throw new AssertionError("chromium wrote no screenshot " + png);
            return ImageIO.read(png.toFile());
        } finally {
            deleteTree(dir);
        }
    }

    private static void run(List<String> args, Path stdout) throws IOException {
        String bin = binary();
        if (bin == null) throw new AssertionError("chromium is not installed");
        Path profile = Files.createTempDirectory("rocectl-chromium");
        Path err = Files.createTempFile("rocectl-chromium", ".err");
        List<String> argv = new ArrayList<>(List.of(bin, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile));
        argv.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectError(err.toFile())
                .redirectOutput(stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()));
        Process p = pb.start();
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                // its renderer and zygote first, by PID, then the browser itself
                p.descendants().sorted(Comparator.comparingLong(ProcessHandle::pid).reversed())
                        .forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
                throw new AssertionError(argv + ": still running after " + TIMEOUT_SECONDS + " s; killed (pid " + p.pid() + ")");
            }
            if (p.exitValue() != 0) {
                throw new AssertionError(argv + ": exit " + p.exitValue() + ": " + Files.readString(err));
            }
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } finally {
            Files.deleteIfExists(err);
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> w = Files.walk(dir)) {
            for (Path f : w.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        }
    }
}
