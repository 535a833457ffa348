package io.rocectl.explain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The peer and GIDs of real NCCL lines (fixtures/explain/addresses.tsv), and IPv4-mapped GIDs in every spelling. */
class LogAddressesTest {
    static final Path ADDRESSES = Path.of("src/test/resources/explain/addresses.tsv");

    static String dash(String s) {
        return s == null ? "-" : s;
    }

    static List<String[]> rows() throws Exception {
        List<String[]> out = new ArrayList<>();
        for (String l : Files.readAllLines(ADDRESSES)) {
            if (l.isBlank() || l.startsWith("#")) continue;
            String[] c = l.split("\t");
            assertEquals(6, c.length, l);
            out.add(c);
        }
        return out;
    }

    @Test
    void everyFixtureLineGivesItsPeerAndGids() throws Exception {
        List<String[]> rows = rows();
        assertTrue(rows.size() >= 9, "fixture rows: " + rows.size());
        for (String[] c : rows) {
            LogAddresses.Seen s = LogAddresses.of(c[0]);
            String got = dash(s.peer()) + " | " + dash(s.localGid()) + " | " + dash(s.remoteGid()) + " | "
                    + dash(LogAddresses.ipv4OfGid(s.localGid())) + " | " + dash(LogAddresses.ipv4OfGid(s.remoteGid()));
            assertEquals(String.join(" | ", c[1], c[2], c[3], c[4], c[5]), got, c[0]);
        }
    }

    @Test
    void ipv4MappedGidsInEverySpelling() {
        assertEquals("10.0.0.1", LogAddresses.ipv4OfGid("::ffff:10.0.0.1"));
        assertEquals("10.0.0.1", LogAddresses.ipv4OfGid("::ffff:a00:1"));
        assertEquals("10.0.0.1", LogAddresses.ipv4OfGid("0000:0000:0000:0000:0000:ffff:0a00:0001"));
        assertEquals("192.168.6.5", LogAddresses.ipv4OfGid("0:0:0:0:0:FFFF:192.168.6.5"));
        assertNull(LogAddresses.ipv4OfGid("fe80:0000:0000:0000:0202:c9ff:fe00:0001"), "link-local GID");
        assertNull(LogAddresses.ipv4OfGid("fd00:1148:9000:5000:4:200:3:ff22"), "IPv6 GID");
        assertNull(LogAddresses.ipv4OfGid("::fffe:10.0.0.1"));
        assertNull(LogAddresses.ipv4OfGid("::ffff:10.0.0.256"));
        assertNull(LogAddresses.ipv4OfGid("1::2::ffff:10.0.0.1"));
        assertNull(LogAddresses.ipv4OfGid("::ffff:10.0.0.1:5"));
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0xffff, 0x0a00, 1}, LogAddresses.hextets("::ffff:10.0.0.1"));
    }

    @Test
    void aFindingKeepsTheDistinctAddressesOfItsLinesInOrder() throws Exception {
        String a = "x NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> with status=12 opcode=0 len=0 vendor err 129"
                + " (Recv) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2";
        String b = a.replace("10.0.0.2", "10.0.1.2");
        List<LogFinding> fs = LogExplainer.scan(new StringReader(a + "\n" + b + "\n" + a + "\nNCCL INFO nothing\n"));
        assertEquals(1, fs.size(), fs.toString());
        assertEquals(3, fs.get(0).count());
        assertEquals(List.of(new LogAddresses.Seen("10.0.0.2", "::ffff:10.0.0.1", "::ffff:10.0.0.2"),
                new LogAddresses.Seen("10.0.1.2", "::ffff:10.0.0.1", "::ffff:10.0.1.2")), fs.get(0).seen());
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 50; i++) many.append(a.replace("10.0.0.2", "10.0.3." + i)).append('\n');
        assertEquals(LogExplainer.MAX_SEEN, LogExplainer.scan(new StringReader(many.toString())).get(0).seen().size());
    }
}
