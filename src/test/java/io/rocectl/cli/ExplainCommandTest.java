package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocectl explain} on text, a file and stdin, through the real CLI. */
class ExplainCommandTest {
    static final Path SAMPLE = Path.of("src/test/resources/explain/sample-nccl.log");
    static final List<String> EXPECTED = List.of(
            "collective nccl-socket-error x1 @19",
            "verbs retry-exceeded x3 @4",
            "verbs wr-flush-error x2 @11",
            "ip ping-host-unreachable x1 @20",
            "arp neighbour-table-overflow x2 @17",
            "link mlx5-link-down x1 @16");
    static final Pattern HEAD = Pattern.compile("^\\[(\\w+)\\] (\\S+)  x(\\d+), first at line (\\d+): .+$");

    static List<String> heads(String out) {
        return out.lines().map(HEAD::matcher).filter(Matcher::matches)
                .map(m -> m.group(1) + " " + m.group(2) + " x" + m.group(3) + " @" + m.group(4)).toList();
    }

    @Test
    void fileGivesEachFindingOnceWithCountAndFirstLine() {
        Cli.Result r = Cli.run("explain", "--file", SAMPLE.toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
        assertEquals(EXPECTED, heads(r.out()), r.out());
        assertTrue(r.out().contains("  line:    [ 4435.115811] mlx5_core 0000:53:00.0 enp83s0f0np0: Link down"), r.out());
        assertTrue(r.out().contains("  meaning: IBV_WC_RETRY_EXC_ERR (status 12"), r.out());
    }

    @Test
    void dashReadsStdin() throws Exception {
        InputStream old = System.in;
        try {
            System.setIn(new ByteArrayInputStream(Files.readAllBytes(SAMPLE)));
            Cli.Result r = Cli.run("explain", "-");
            assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
            assertEquals(EXPECTED, heads(r.out()), r.out());
        } finally {
            System.setIn(old);
        }
    }

    @Test
    void quotedTextStillWorksAndNothingFoundExits2() {
        Cli.Result r = Cli.run("explain", "...", "Got completion from peer 10.0.0.2<50000> with error 12", "...");
        assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
        assertEquals(List.of("verbs retry-exceeded x1 @1"), heads(r.out()));
        Cli.Result none = Cli.run("explain", "all good");
        assertEquals(ExitCodes.FAILED, none.exitCode(), none.out() + none.err());
        assertTrue(none.out().startsWith("no known error"), none.out());
    }

    @Test
    void badInputIsOneLineExit5(@TempDir Path dir) throws Exception {
        Cli.Result missing = Cli.run("explain", "--file", dir.resolve("nope.log").toString());
        assertEquals(ExitCodes.BAD_INPUT, missing.exitCode(), missing.out() + missing.err());
        assertTrue(missing.err().contains("nope.log"), missing.err());
        Cli.Result nothing = Cli.run("explain");
        assertEquals(ExitCodes.BAD_INPUT, nothing.exitCode(), nothing.out() + nothing.err());
        Path log = Files.writeString(dir.resolve("a.log"), "x\n");
        Cli.Result both = Cli.run("explain", "--file", log.toString(), "text");
        assertEquals(ExitCodes.BAD_INPUT, both.exitCode(), both.out() + both.err());
        Cli.Result empty = Cli.run("explain", "--file", log.toString());
        assertEquals(ExitCodes.FAILED, empty.exitCode(), "a log with nothing known exits 2");
    }

    /** The block printed under the finding {@code id} (its head line excluded), up to the next finding. */
    static List<String> block(String out, String id) {
        List<String> l = out.lines().toList();
        int i = 0;
        while (i < l.size() && !(HEAD.matcher(l.get(i)).matches() && l.get(i).contains("] " + id + "  x"))) i++;
        assertTrue(i < l.size(), "no finding " + id + " in:\n" + out);
        List<String> b = new java.util.ArrayList<>();
        for (i++; i < l.size() && !HEAD.matcher(l.get(i)).matches(); i++) b.add(l.get(i));
        return b;
    }

    @Test
    void withoutInventoryTheAddressesAreShownAndHealthIsSuggestedForRetryExceeded() {
        Cli.Result r = Cli.run("explain", "--file", SAMPLE.toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
        List<String> retry = block(r.out(), "retry-exceeded");
        assertTrue(retry.contains("  seen:    peer 10.216.210.236, localGid fd00:1148:9000:5000:4:200:3:ff22 (not an IPv4 GID:"
                + " its NIC cannot be named from it), remoteGids fd00:1148:9000:5000:4:200:3:ff1f (not an IPv4 GID: its NIC"
                + " cannot be named from it)"), String.join("\n", retry));
        assertTrue(retry.contains("  resolve: add -i INV to name the host:NIC of these addresses and get the doctor command"),
                String.join("\n", retry));
        assertTrue(retry.stream().anyMatch(x -> x.startsWith("  health:  rocectl health -i INV   (a clean probe does not clear")),
                String.join("\n", retry));
        List<String> flush = block(r.out(), "wr-flush-error");
        assertTrue(flush.contains("  seen:    peer 172.36.143.59, localGid ::ffff:29.87.88.182 = 29.87.88.182, remoteGids"
                + " ::ffff:29.87.4.221 = 29.87.4.221"), String.join("\n", flush));
        assertTrue(flush.stream().noneMatch(x -> x.contains("rocectl health")), "a flush follows an earlier error: "
                + flush);
        assertTrue(block(r.out(), "mlx5-link-down").stream().noneMatch(x -> x.contains("seen:") || x.contains("health")),
                r.out());
    }

    @Test
    void healthIsSuggestedExactlyForTheEventsAPathProbeCannotClear() {
        assertEquals(java.util.Set.of("mlx5-cqe-error", "nccl-ib-async-event", "response-timeout", "retry-exceeded",
                "wc-status-19", "wc-status-21"), io.rocectl.explain.HealthHint.ids());
        assertTrue(io.rocectl.explain.Explain.ids().containsAll(io.rocectl.explain.HealthHint.ids()), "unknown ids in HealthHint");
        Cli.Result r = Cli.run("explain", "-i", "nowhere.ini", "IBV_WC_RESP_TIMEOUT_ERR");
        assertEquals(ExitCodes.OK, r.exitCode(), "no address in the text: the inventory is not read; " + r.out() + r.err());
        assertTrue(r.out().contains("  health:  rocectl health -i nowhere.ini   (a clean probe"), r.out());
    }
}
