package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.history.RemediationHistory;
import io.rocectl.testing.Await;
import io.rocectl.testing.Cli;
import java.io.ByteArrayOutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fix leaves a trail: after {@code rule-del} on gpu02, {@code remediate --quiet} says what it did,
 * sends a syslog line naming gpu02 (to a real socket, through logger), appends a history record and
 * writes metrics node_exporter can read; a run with nothing to do prints and records nothing.
 */
@Tag("lab")
class RemediateTrailLabTest {
    static final String NAME = "trail";
    static final String PLAYBOOK = "playbooks/roce-multinic.yaml";
    static LabState s;
    static String inv;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 3, 2, "none");
        inv = s.inventory().toString();
        LabTestSupport.fix(s);
    }

    @AfterAll
    static void down() {
        if (s == null) return;
        Lab.down(LabState.load(s.path()), LabTestSupport.quiet());
    }

    /** Everything written to a unix stream socket until the test ends, as logger delivers it. */
    static final class SyslogSink implements AutoCloseable {
        final ServerSocketChannel server;
        final ExecutorService pool = Executors.newSingleThreadExecutor();
        final ByteArrayOutputStream got = new ByteArrayOutputStream();

        SyslogSink(Path sock) throws Exception {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(sock));
            pool.submit(() -> {
                while (server.isOpen()) {
                    try (SocketChannel c = server.accept()) {
                        ByteBuffer b = ByteBuffer.allocate(4096);
                        while (c.read(b) >= 0) {
                            synchronized (got) {
                                got.write(b.array(), 0, b.position());
                            }
                            b.clear();
                        }
                    } catch (java.io.IOException e) {
                        return null;
                    }
                }
                return null;
            });
        }

        String text() {
            synchronized (got) {
                return got.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public void close() throws java.io.IOException {
            server.close();
            pool.shutdownNow();
        }
    }

    @Test
    void aFixLeavesASummaryASyslogLineAHistoryRecordAndReadableMetrics() throws Exception {
        Path history = tmp.resolve("history.jsonl"), metrics = tmp.resolve("rocectl.prom"), sock = tmp.resolve("log.sock");
        LabTestSupport.breakFault(s, "rule-del", "--host", "gpu02");
        try (SyslogSink sink = new SyslogSink(sock)) {
            List<String> args = new ArrayList<>(List.of("remediate", "-i", inv, "--playbook", PLAYBOOK, "--quiet",
                    "--history", history.toString(), "--syslog", sock.toString(), "--metrics", metrics.toString()));
            Cli.Result r = Cli.run(args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("fix re-applied on gpu02"), "--quiet still says what it fixed: " + r.out());
            assertTrue(r.out().contains("every pair is up"), r.out());

            Await.until("the syslog line about gpu02 reaches the socket", Await.LONG, sink::text,
                    t -> t.contains("rocectl: remediate: re-applied the RoCE fix on gpu02"));

            List<RemediationHistory.Entry> es = RemediationHistory.parse(Files.readString(history));
            assertEquals(1, es.size());
            assertEquals(List.of("gpu02"), es.get(0).hostsFixed());
            assertTrue(es.get(0).pairsFailedBefore() > 0);
            assertEquals(0, es.get(0).pairsFailedAfter());

            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(metrics)));
            String m = Files.readString(metrics);
            assertTrue(m.contains("rocectl_remediate_hosts_fixed{pair_set=\"all\"} 1\n"), m);
            assertTrue(m.contains("rocectl_remediate_pairs_repaired{pair_set=\"all\"} " + es.get(0).pairsFailedBefore() + "\n"), m);
            assertTrue(m.contains("rocectl_probe_nic_pairs_failed{pair_set=\"all\",host=\"gpu02\",nic=\"ens1f0\"} 0\n"), m);

            // nothing to do: silent, nothing recorded, no syslog line
            String before = sink.text();
            Cli.Result again = Cli.run(args.toArray(String[]::new));
            assertEquals(0, again.exitCode(), again.out() + again.err());
            assertEquals("", again.out().strip(), "--quiet with all up and nothing changed prints nothing");
            assertEquals(1, RemediationHistory.parse(Files.readString(history)).size());
            // the sink takes connections in turn: once a line sent after the run arrives, anything
            // the run sent has arrived before it
            String marker = "@@after-the-second-run@@\n";
            try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(sock))) {
                c.write(ByteBuffer.wrap(marker.getBytes(StandardCharsets.UTF_8)));
            }
            Await.until("the line sent after the second run reaches the sink", Await.LONG, sink::text, t -> t.contains(marker));
            assertEquals(before + marker, sink.text(), "no syslog line from the run that changed nothing");
        }
    }
}
