package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Await;
import io.rocectl.testing.Proc;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's {@code ./rocectl} while it records a class-data archive (the JVM runs as its
 * child): SIGTERM and SIGINT sent to the launcher reach the JVM, and no temporary archive is left
 * in target/. The jar is a stand-in whose main class ({@link Spin}) never ends by itself.
 */
class LauncherSignalTest {
    /** How long a JVM may take to start or to exit while it writes its archive, on a loaded machine. */
    private static final Duration EXIT = Duration.ofMinutes(5);

    @TempDir
    Path tmp;

    /** A checkout copy: the launcher and target/rocectl.jar running {@link Spin} from the test classes. */
    private Path checkout() throws IOException {
        Path launcher = Files.copy(Path.of("rocectl"), tmp.resolve("rocectl"));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = Files.createDirectories(tmp.resolve("target"));
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Spin.class.getName());
        Path classes = Path.of(Spin.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        mf.getMainAttributes().put(Attributes.Name.CLASS_PATH, classes.toUri().toString());
        try (OutputStream o = Files.newOutputStream(target.resolve("rocectl.jar"));
                JarOutputStream j = new JarOutputStream(o, mf)) {
            j.flush();
        }
        return launcher;
    }

    private List<String> leftovers() throws IOException {
        try (Stream<Path> s = Files.list(tmp.resolve("target"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }

    /** The launcher's java child, once it has started (and is recording: the option is on its command line). */
    private static ProcessHandle javaChild(Process launcher) throws InterruptedException {
        long deadline = System.nanoTime() + EXIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> c = launcher.children()
                    .filter(h -> h.info().commandLine().orElse("").contains("ArchiveClassesAtExit")).findFirst();
            if (c.isPresent()) return c.get();
            assertTrue(launcher.isAlive(), "the launcher ended before starting java");
            Thread.sleep(50);
        }
        throw new AssertionError("no java child recording an archive within " + EXIT.toSeconds() + " s");
    }

    private void signalReachesTheJvm(String signal) throws Exception {
        Path launcher = checkout();
        ProcessBuilder pb = new ProcessBuilder(Proc.withDefaultSignals(List.of(launcher.toString(), "explain", "x"))).directory(tmp.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(tmp.resolve("out").toFile()).redirectError(tmp.resolve("err").toFile());
        pb.environment().remove("ROCECTL_CDS");
        pb.environment().remove("ROCECTL_JAVA_OPTS");
        Process p = pb.start();
        ProcessHandle java = null;
        try {
            java = javaChild(p);
            // the JVM writes this file once its main method runs (its signal handlers are in place)
            Path ready = tmp.resolve("spin.ready");
            Await.until("the java child runs its main method", EXIT, () -> Files.exists(ready), b -> b);
            Proc.Result kill = Proc.run(List.of("kill", "-s", signal, Long.toString(p.pid())));
            assertEquals(0, kill.exitCode(), kill.both());
            // the JVM dumps the class list it recorded as it exits: seconds of CPU, minutes on a loaded machine
            assertTrue(p.waitFor(EXIT.toSeconds(), TimeUnit.SECONDS),
                    "the launcher still runs " + EXIT.toSeconds() + " s after SIG" + signal);
            long pid = java.pid();
            Await.until("the java child gone after its launcher ended on SIG" + signal, Await.LONG, () -> Proc.running(pid), r -> !r);
            assertEquals(List.of(), leftovers(), "temporary archive left in target/");
            assertFalse(Files.exists(tmp.resolve("target/rocectl-explain.jsa")), "an interrupted recording was installed");
        } finally {
            if (java != null) java.destroyForcibly();
            p.destroyForcibly();
        }
    }

    @Test
    void sigtermReachesTheRecordingJvm() throws Exception {
        signalReachesTheJvm("TERM");
    }

    @Test
    void sigintReachesTheRecordingJvm() throws Exception {
        signalReachesTheJvm("INT");
    }

    /** The stand-in rocectl: says it runs (a file in its working directory), then waits forever. */
    public static final class Spin {
        private Spin() {}

        public static void main(String[] args) throws Exception {
            Files.writeString(Path.of("spin.ready"), "ready\n");
            while (true) Thread.sleep(1000);
        }
    }
}
