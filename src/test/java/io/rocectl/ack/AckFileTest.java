package io.rocectl.ack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocectl.error.InputError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The acknowledgement file: what is written reads back the same; anything malformed is FILE:LINE. */
class AckFileTest {
    static final Set<String> CAUSES = Set.of("link-down", "ip-unreachable", "host-unreachable");

    @TempDir
    Path tmp;

    @Test
    void writtenEntriesReadBackTheSame() throws Exception {
        Instant t = Instant.parse("2026-12-02T03:00:00Z");
        List<Ack> acks = List.of(
                new Ack("prod-a", "gpu05", "ens2f0", "link-down", "RMA \"7\": cable \\ swap\nTuesday", t, t.plusSeconds(3600), 0),
                new Ack("prod-b", "gpu06", null, "host-unreachable", "PSU", t, null, 0));
        Path f = tmp.resolve("etc/rocectl/ack.yaml");
        AckFile.write(f, acks);
        List<Ack> back = AckFile.read(f, CAUSES);
        assertEquals(2, back.size());
        for (int i = 0; i < 2; i++) {
            Ack a = acks.get(i), b = back.get(i);
            assertEquals(List.of(a.cluster(), a.target(), a.cause(), a.reason(), String.valueOf(a.expires())),
                    List.of(b.cluster(), b.target(), b.cause(), b.reason(), String.valueOf(b.expires())));
            assertEquals(a.added(), b.added());
        }
        assertNull(back.get(1).nic());
        assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(List.of(), AckFile.read(tmp.resolve("missing.yaml"), CAUSES), "no file: no acknowledgements");
        AckFile.write(f, List.of());
        assertEquals(List.of(), AckFile.read(f, CAUSES));
    }

    private String error(String text) throws Exception {
        Path f = Files.writeString(tmp.resolve("ack.yaml"), text);
        return assertThrows(InputError.class, () -> AckFile.read(f, CAUSES)).oneLine().replace(f.toString(), "ack.yaml");
    }

    @Test
    void malformedEntriesAreReportedWithFileAndLine() throws Exception {
        String ok = "acks:\n  - cluster: c\n    target: gpu01:ens0\n    cause: link-down\n    reason: r\n";
        assertEquals(1, AckFile.read(Files.writeString(tmp.resolve("ok.yaml"), ok), CAUSES).size());
        assertEquals("ack.yaml:6:5: unknown key 'expiry' (expected one of cluster, target, cause, reason, added, expires)",
                error(ok + "    expiry: 48h\n"));
        assertEquals("ack.yaml:4:12: unknown cause 'link-dwon' (one of host-unreachable, ip-unreachable, link-down)",
                error(ok.replace("cause: link-down", "cause: link-dwon")));
        assertEquals("ack.yaml:3:13: 'gpu01:ens0;reboot' is not HOST:NIC or HOST",
                error(ok.replace("gpu01:ens0", "gpu01:ens0;reboot")));
        assertEquals("ack.yaml:6:14: 'tomorrow' is not a time such as 2026-12-01T09:00:00Z", error(ok + "    expires: tomorrow\n"));
        assertEquals("ack.yaml:2:5: acknowledgement without 'reason'", error(ok.replace("    reason: r\n", "")));
        assertEquals("ack.yaml:1:1: unknown key 'ack' (expected 'acks')", error(ok.replace("acks:", "ack:")));
        assertEquals("ack.yaml:1:1: expected a mapping with the key 'acks'", error("- gpu01\n"));
        assertEquals("ack.yaml:2:14: 'cluster' must be a single value", error(ok.replace("cluster: c", "cluster: [a, b]")));
    }
}
