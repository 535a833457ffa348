package io.rocectl.fact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.health.HealthSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Numbers a host prints are read within their range or refused (issue 31): a prefix length of
 * 4294967320 was read as /24 and 1e20 as 1661992959, and the plan was made from them.
 */
class HostNumbersTest {
    private static String addr(String prefixlen) {
        return "[{\"ifindex\":3,\"ifname\":\"eth1\",\"mtu\":9000,\"flags\":[\"UP\"],\"addr_info\":[{\"family\":\"inet\","
                + "\"local\":\"172.31.1.5\",\"prefixlen\":" + prefixlen + "}]}]";
    }

    private static void refused(Runnable r, String... parts) {
        FactParseException e = assertThrows(FactParseException.class, r::run);
        for (String p : parts) assertTrue(e.getMessage().contains(p), e.getMessage());
    }

    @Test
    void prefixLengthsInRangeAreRead() {
        assertEquals(16, IpJson.addr(addr("16")).get(0).inet().get(0).prefix());
        assertEquals(0, IpJson.addr(addr("0")).get(0).inet().get(0).prefix());
        assertEquals(32, IpJson.addr(addr("\"32\"")).get(0).inet().get(0).prefix());
    }

    @Test
    void prefixLengthsOutOfRangeAreRefused() {
        refused(() -> IpJson.addr(addr("4294967320")), "prefixlen 4294967320", "out of range (0..32)");
        refused(() -> IpJson.addr(addr("1e20")), "prefixlen 1.0E20", "out of range");
        refused(() -> IpJson.addr(addr("1e999999999")), "prefixlen", "out of range");
        refused(() -> IpJson.addr(addr("33")), "prefixlen 33");
        refused(() -> IpJson.addr(addr("-8")), "prefixlen -8");
        refused(() -> IpJson.addr(addr("\"99999999999999999999999\"")), "prefixlen");
        refused(() -> IpJson.addr(addr("\"sixteen\"")), "prefixlen 'sixteen' is not a number");
        refused(() -> IpJson.addr(addr("true")), "prefixlen true is not a number");
    }

    @Test
    void interfaceNumbersOutOfAnIntAreRefused() {
        refused(() -> IpJson.addr("[{\"ifindex\":3,\"ifname\":\"eth1\",\"mtu\":4294976296}]"), "mtu 4294976296");
        refused(() -> IpJson.addr("[{\"ifindex\":4294967299,\"ifname\":\"eth1\",\"mtu\":1500}]"), "ifindex 4294967299");
        assertEquals(9000, IpJson.addr("[{\"ifindex\":3,\"ifname\":\"eth1\",\"mtu\":9000}]").get(0).mtu());
    }

    @Test
    void ruleAndRouteNumbersOutOfRangeAreRefused() {
        RtTables t = new RtTables();
        refused(() -> IpJson.rules("[{\"priority\":4294967396,\"src\":\"10.0.0.1\",\"table\":\"main\"}]", t), "priority");
        refused(() -> IpJson.rules("[{\"priority\":100,\"src\":\"10.0.0.0\",\"srclen\":4294967320,\"table\":\"main\"}]", t),
                "srclen 4294967320");
        refused(() -> IpJson.rules("[{\"priority\":100,\"src\":\"10.0.0.1\",\"table\":\"4294967396\"}]", t), "table 4294967396");
        refused(() -> IpJson.routes("[{\"dst\":\"172.31.0.0/4294967312\",\"dev\":\"eth1\"}]", t), "route prefix length");
        refused(() -> IpJson.routes("[{\"dst\":\"172.31.0.0/16\",\"dev\":\"eth1\",\"metric\":1e20}]", t), "metric 1.0E20");
        refused(() -> IpJson.routes("[{\"dst\":\"172.31.0.0/16\",\"dev\":\"eth1\",\"table\":1e20}]", t), "table");
        refused(() -> IpJson.routeGet("[{\"dst\":\"172.31.0.9\",\"dev\":\"eth1\",\"table\":\"99999999999\"}]", t), "table");
        KernelRoute ok = IpJson.routes("[{\"dst\":\"172.31.0.0/16\",\"dev\":\"eth1\",\"table\":\"101\",\"metric\":5}]", t).get(0);
        assertEquals(101, ok.table());
        assertEquals(5, ok.metric());
        assertEquals(-1, IpJson.rules("[{\"priority\":1,\"src\":\"10.0.0.1\",\"table\":\"nosuch\"}]", t).get(0).table());
    }

    @Test
    void rdmaAndSshNumbersOutOfRangeAreRefused() {
        refused(() -> RdmaSysfs.parse("port mlx5_0 4294967297 Ethernet ACTIVE\n"), "RDMA port 4294967297");
        refused(() -> RdmaSysfs.parse("port mlx5_0 1 Ethernet ACTIVE\ngid mlx5_0 1 4294967296 fe80::1 eth1 RoCEv2\n"),
                "GID index 4294967296");
        assertEquals(1, RdmaSysfs.parse("port mlx5_0 1 Ethernet ACTIVE\ngid mlx5_0 1 3 fe80::1 eth1 RoCEv2\n").get(0).port());
        refused(() -> SshConnectionVar.parse("10.0.0.9 50000 10.0.0.1 4294967318"), "server port 4294967318");
        assertEquals(22, SshConnectionVar.parse("10.0.0.9 50000 10.0.0.1 22").serverPort());
    }

    @Test
    void healthCountersPastALongAreRefusedNamingTheHost() {
        String out = "epoch 100\nport mlx5_0 1\nstate 4: ACTIVE\ncounter symbol_error 18446744073709551617\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HealthSample.parse("gpu7", out));
        assertTrue(e.getMessage().startsWith("gpu7: ") && e.getMessage().contains("counter symbol_error 18446744073709551617"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HealthSample.parse("gpu7", "epoch 99999999999999999999\n"));
        assertThrows(IllegalArgumentException.class, () -> HealthSample.parse("gpu7", "port mlx5_0 4294967297\n"));
        HealthSample ok = HealthSample.parse("gpu7", "epoch 100\nport mlx5_0 1\ncounter symbol_error 9223372036854775807\n");
        assertEquals(List.of(Long.MAX_VALUE), List.copyOf(ok.ports().get(0).counters().values()));
    }
}
