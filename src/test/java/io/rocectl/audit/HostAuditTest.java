package io.rocectl.audit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the audit's own snippet prints, parsed; the rate file split into rate and width. */
class HostAuditTest {
    @Test
    void rateAndWidth() {
        assertArrayEquals(new String[] {"200 Gb/sec", "4X"}, HostAudit.rate("200 Gb/sec (4X HDR)"));
        assertArrayEquals(new String[] {"25 Gb/sec", "1X"}, HostAudit.rate("25 Gb/sec (1X EDR)"));
        assertArrayEquals(new String[] {"100 Gb/sec", null}, HostAudit.rate("100 Gb/sec"));
    }

    @Test
    void extraSection() {
        HostAudit.Extra e = HostAudit.Extra.parse("""
                net ens1f0 numa_node 1
                net ens1f0 current_link_speed 16.0 GT/s PCIe
                net ens1f0 current_link_width 16
                ib mlx5_0 fw_ver 28.39.1002
                ib mlx5_0 board_id MT_0000000838
                host memlock unlimited
                host hugepages 0
                garbage
                """);
        assertEquals(Map.of("numa_node", "1", "current_link_speed", "16.0 GT/s PCIe", "current_link_width", "16"),
                e.net().get("ens1f0"));
        assertEquals(Map.of("fw_ver", "28.39.1002", "board_id", "MT_0000000838"), e.ib().get("mlx5_0"));
        assertEquals(Map.of("memlock", "unlimited", "hugepages", "0"), e.host());
    }
}
