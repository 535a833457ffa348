package io.rocectl.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remediation trail's files and syslog lines, with real files, a real logger and a real socket. */
class HistoryLogTest {

    @Test
    void historyIsAppendedWithMode0644AndRotatedBySize(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("state/history.jsonl");
        HistoryLog.append(f, "{\"a\":1}");
        HistoryLog.append(f, "{\"a\":2}");
        assertEquals("{\"a\":1}\n{\"a\":2}\n", Files.readString(f));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        Files.writeString(f, "x".repeat((int) HistoryLog.MAX_HISTORY_BYTES - 3) + "\n");
        HistoryLog.append(f, "{\"a\":3}");
        assertEquals("{\"a\":3}\n", Files.readString(f), "the full file moved to .1, the line starts a new one");
        assertTrue(Files.readString(HistoryLog.rotated(f)).startsWith("xxx"));
        assertTrue(HistoryLog.readHistory(f).endsWith("{\"a\":3}\n\n"), "both generations are read, the current one last");
    }

    @Test
    void aHistoryWithInvalidUtf8StillCountsItsOtherLinesAndSaysSo(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("history.jsonl");
        String entry = "{\"time\":\"2024-01-01T00:00:00Z\",\"hosts_fixed\":[\"gpu01\"]}\n";
        byte[] e = entry.getBytes(StandardCharsets.UTF_8);
        byte[] torn = {'{', '"', 't', (byte) 0xe2, (byte) 0x82, '\n'};
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.write(e);
        b.write(torn);
        b.write(e);
        Files.write(f, b.toByteArray());
        List<String> warnings = new java.util.ArrayList<>();
        String text = HistoryLog.readHistory(f, warnings);
        assertEquals(2, io.rocectl.history.RemediationHistory.parse(text).size(), text);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("state file " + f + " holds invalid UTF-8"), warnings.get(0));
    }

    @Test
    void aDirectoryInThePlaceOfTheHistoryIsAWarningNotACrash(@TempDir Path dir) throws Exception {
        Path f = Files.createDirectories(dir.resolve("history.jsonl"));
        List<String> warnings = new java.util.ArrayList<>();
        assertEquals("", HistoryLog.readHistory(f, warnings));
        assertTrue(warnings.get(0).contains(f + " is a directory, not a file"), warnings.toString());
        assertThrows(java.io.IOException.class, () -> HistoryLog.append(f, "{\"a\":1}"));
    }

    @Test
    void anAppendAfterATornLastLineStartsOnItsOwnLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("history.jsonl");
        Files.writeString(f, "{\"a\":1}\n{\"a\":");
        HistoryLog.append(f, "{\"a\":3}");
        assertEquals("{\"a\":1}\n{\"a\":\n{\"a\":3}\n", Files.readString(f));
    }

    @Test
    void historyIsNeverWrittenThroughASymlink(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("precious");
        Files.writeString(target, "keep\n");
        Path link = dir.resolve("history.jsonl");
        Files.createSymbolicLink(link, target);
        assertThrows(java.io.IOException.class, () -> HistoryLog.append(link, "{\"a\":1}"));
        assertEquals("keep\n", Files.readString(target));
    }

    @Test
    void syslogGetsOneMessagePerLineThroughLogger(@TempDir Path dir) throws Exception {
        boolean logger = false;
        for (String d : List.of("/usr/bin", "/bin")) logger |= Files.isExecutable(Path.of(d, "logger"));
        if (!logger) {
            System.out.println("SKIPPED syslog test: logger (bsdutils) not installed");
            return;
        }
        Path sock = dir.resolve("log.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(sock));
            CompletableFuture<String> got = CompletableFuture.supplyAsync(() -> {
                try (SocketChannel c = server.accept()) {
                    ByteArrayOutputStream all = new ByteArrayOutputStream();
                    ByteBuffer b = ByteBuffer.allocate(4096);
                    while (c.read(b) >= 0) {
                        all.write(b.array(), 0, b.position());
                        b.clear();
                    }
                    return all.toString(StandardCharsets.UTF_8);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            HistoryLog.syslog(List.of("remediate: re-applied the RoCE fix on gpu02", "two\nlines"), "user.notice", sock,
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String text = got.get(20, TimeUnit.SECONDS);
            assertEquals("", err.toString(StandardCharsets.UTF_8));
            List<String> msgs = text.lines().toList();
            assertEquals(2, msgs.size(), text);
            assertTrue(msgs.get(0).startsWith("<13>"), "facility user, priority notice: " + msgs.get(0));
            assertTrue(msgs.get(0).endsWith("rocectl: remediate: re-applied the RoCE fix on gpu02"), msgs.get(0));
            assertTrue(msgs.get(1).endsWith("rocectl: two lines"), "a line break inside a message is not a new message");
        }
    }

    @Test
    void aMissingSyslogSocketIsAWarningNotAFailure(@TempDir Path dir) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        HistoryLog.syslog(List.of("x"), "user.notice", dir.resolve("nothing-listens"), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("warning"), err.toString(StandardCharsets.UTF_8));
    }
}
