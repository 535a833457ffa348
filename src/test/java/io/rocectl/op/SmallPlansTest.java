package io.rocectl.op;

import io.rocectl.fact.IpJson;
import io.rocectl.fact.Neigh;
import io.rocectl.fact.RtTables;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NeighPlanner, RouteCheck, NcclConf. */
class SmallPlansTest {
    static final List<RoceNic> NICS = NicSelector.select(RoceFixtures.snapshot("8nic"),
            new NicSelector.Criteria(List.of(), null, false, null, null)).nics();

    @Test
    void neighFindsOnlyWrongMacsOnRoceNics() {
        String json = "[{\"dst\":\"192.168.100.21\",\"dev\":\"ens1f0np0\",\"lladdr\":\"b8:3f:d2:4c:12:5b\",\"state\":[\"STALE\"]},"
                + "{\"dst\":\"192.168.100.21\",\"dev\":\"ens2f0np0\",\"lladdr\":\"B8:3F:D2:4C:10:5A\",\"state\":[\"REACHABLE\"]},"
                + "{\"dst\":\"192.168.100.22\",\"dev\":\"ens1f0np0\",\"state\":[\"FAILED\"]},"
                + "{\"dst\":\"192.168.100.23\",\"dev\":\"ens3f0np0\",\"lladdr\":\"02:00:00:00:00:01\",\"state\":[\"PERMANENT\"]},"
                + "{\"dst\":\"10.10.1.1\",\"dev\":\"eno1\",\"lladdr\":\"00:1c:73:00:00:01\",\"state\":[\"REACHABLE\"]},"
                + "{\"dst\":\"192.168.100.99\",\"dev\":\"ens1f0np0\",\"lladdr\":\"02:00:00:00:00:99\",\"state\":[\"STALE\"]}]";
        List<Neigh> n = IpJson.neigh(json);
        Map<String, String> want = Map.of("192.168.100.21", "b8:3f:d2:4c:10:5a", "192.168.100.22", "b8:3f:d2:4c:12:5b",
                "192.168.100.23", "b8:3f:d2:4c:14:5c", "10.10.1.1", "ff:ff:ff:ff:ff:ff");
        List<NeighPlanner.Wrong> w = NeighPlanner.plan(NICS.stream().map(RoceNic::name).toList(), n, want);
        assertEquals(List.of("neigh del 192.168.100.21 dev ens1f0np0", "neigh del 192.168.100.23 dev ens3f0np0"),
                w.stream().map(NeighPlanner.Wrong::batchLine).toList());
        assertTrue(w.get(1).permanent());
    }

    @Test
    void routeCheckJudgesDevAndTable() {
        List<RoceNic> two = NICS.subList(0, 2);
        List<RouteCheck.Probe> probes = RouteCheck.probes(two, List.of("192.168.100.11", "192.168.100.21", "192.168.100.22",
                "10.0.0.5"), 100, false, 0);
        assertEquals(4, probes.size(), "the host's own addresses and other subnets are skipped");
        assertEquals(1, RouteCheck.probes(two, List.of("192.168.100.21", "192.168.100.22"), 100, false, 1).stream()
                .filter(p -> p.nic().name().equals("ens1f0np0")).count());
        // captured from a host before the fix: everything leaves through the first NIC, main table
        String before = "[{\"dst\":\"192.168.100.21\",\"from\":\"192.168.100.11\",\"dev\":\"ens1f0np0\",\"flags\":[],\"uid\":0,\"cache\":[]}]\n"
                + "[{\"dst\":\"192.168.100.22\",\"from\":\"192.168.100.11\",\"dev\":\"ens1f0np0\",\"flags\":[],\"uid\":0,\"cache\":[]}]\n"
                + "[{\"dst\":\"192.168.100.11\",\"from\":\"192.168.100.12\",\"dev\":\"ens1f0np0\",\"flags\":[],\"uid\":0,\"cache\":[]}]\n"
                + "[{\"dst\":\"192.168.100.21\",\"from\":\"192.168.100.12\",\"dev\":\"ens1f0np0\",\"flags\":[],\"uid\":0,\"cache\":[]}]\n";
        List<String> wrong = RouteCheck.wrong(probes, IpJson.routeGet(before, new RtTables()), Map.of());
        assertEquals(4, wrong.size(), wrong.toString());
        assertTrue(wrong.contains("ens2f0np0: 192.168.100.22 from 192.168.100.12: no route"), wrong.toString());
        String after = before.replace("\"dev\":\"ens1f0np0\",\"flags\"", "\"dev\":\"ens1f0np0\",\"table\":\"roce_ens1f0np0\",\"flags\"")
                .replace("\"from\":\"192.168.100.12\",\"dev\":\"ens1f0np0\",\"table\":\"roce_ens1f0np0\"",
                        "\"from\":\"192.168.100.12\",\"dev\":\"ens2f0np0\",\"table\":\"101\"")
                + "[{\"dst\":\"192.168.100.22\",\"from\":\"192.168.100.12\",\"dev\":\"ens2f0np0\",\"table\":\"roce_ens2f0np0\",\"flags\":[]}]\n";
        RtTables t = RtTables.parse("100 roce_ens1f0np0\n101 roce_ens2f0np0\n");
        assertEquals(List.of(), RouteCheck.wrong(probes, IpJson.routeGet(after, t), Map.of()));
    }

    @Test
    void peersTheRulesAndRoutesCannotTellApartShareOneLookup() {
        io.rocectl.fact.NetSnapshot right = RoceFixtures.snapshot(RoceFixtures.DIR.resolve("routing/8nic-right"));
        List<String> peers = List.of("192.168.100.21", "192.168.100.22", "192.168.100.23", "10.0.0.5");
        List<io.rocectl.fact.KernelRoute> routes = new java.util.ArrayList<>(right.routes());
        Map<String, String> rep = RouteCheck.representatives(peers, right.rules(), routes);
        assertEquals(Map.of("192.168.100.21", "192.168.100.21", "192.168.100.22", "192.168.100.21",
                "192.168.100.23", "192.168.100.21", "10.0.0.5", "10.0.0.5"), rep, "one class per set of holding routes");
        List<RoceNic> two = NICS.subList(0, 2);
        List<RouteCheck.Probe> probes = RouteCheck.probes(two, peers, 100, false, 0);
        assertEquals(6, probes.size());
        List<RouteCheck.Probe> asked = RouteCheck.lookups(probes, rep);
        assertEquals(List.of("route get 192.168.100.21 from 192.168.100.11", "route get 192.168.100.21 from 192.168.100.12"),
                asked.stream().map(RouteCheck.Probe::batchLine).toList(), "one lookup per source NIC");

        // a route of its own for one peer (here in the main table) makes it a class of its own
        routes.add(new io.rocectl.fact.KernelRoute("unicast", "192.168.100.22/32", "ens8f0np0", 254, "link", "", "", "static", 0));
        assertEquals("192.168.100.22", RouteCheck.representatives(peers, right.rules(), routes).get("192.168.100.22"));
        assertEquals("192.168.100.21", RouteCheck.representatives(peers, right.rules(), routes).get("192.168.100.23"));
        // a route without one dev (multipath: the next hop hangs on the destination's hash) holding peers: each its own
        List<io.rocectl.fact.KernelRoute> multi = new java.util.ArrayList<>(right.routes());
        multi.add(new io.rocectl.fact.KernelRoute("unicast", "192.168.100.0/25", "", 254, "global", "", "", "static", 0));
        Map<String, String> own = RouteCheck.representatives(peers, right.rules(), multi);
        for (String p : peers) assertEquals(p, own.get(p), "multipath: " + own);
        // a rule with another selector (to, iif, fwmark, ...) may pick by destination: each its own
        List<io.rocectl.fact.Rule> rules = new java.util.ArrayList<>(right.rules());
        rules.add(new io.rocectl.fact.Rule(50, "all", 0, 254, true));
        Map<String, String> ruled = RouteCheck.representatives(peers, rules, right.routes());
        for (String p : peers) assertEquals(p, ruled.get(p), "rule with other selectors: " + ruled);
        assertEquals(6, RouteCheck.lookups(probes, ruled).size());

        // a route whose prefix cannot be read might hold any peer: each its own
        List<io.rocectl.fact.KernelRoute> odd = new java.util.ArrayList<>(right.routes());
        odd.add(new io.rocectl.fact.KernelRoute("unicast", "192.168.100.0/33", "ens1f0np0", 254, "link", "", "", "static", 0));
        Map<String, String> unread = RouteCheck.representatives(peers, right.rules(), odd);
        for (String p : peers) assertEquals(p, unread.get(p), "unreadable prefix: " + unread);

        // every probe is judged by its representative's answer, and says so
        String answers = "[{\"dst\":\"192.168.100.21\",\"from\":\"192.168.100.11\",\"dev\":\"ens1f0np0\",\"table\":\"100\"}]\n"
                + "[{\"dst\":\"192.168.100.21\",\"from\":\"192.168.100.12\",\"dev\":\"ens1f0np0\"}]\n";
        List<String> wrong = RouteCheck.wrong(probes, IpJson.routeGet(answers, new RtTables()), rep);
        assertEquals(List.of(
                "ens2f0np0: 192.168.100.21 from 192.168.100.12 goes dev ens1f0np0 table 254, expected dev ens2f0np0 table 101",
                "ens2f0np0: 192.168.100.22 from 192.168.100.12 goes dev ens1f0np0 table 254, expected dev ens2f0np0 table 101"
                        + " (as 192.168.100.21, routed alike)",
                "ens2f0np0: 192.168.100.23 from 192.168.100.12 goes dev ens1f0np0 table 254, expected dev ens2f0np0 table 101"
                        + " (as 192.168.100.21, routed alike)"), wrong);
    }

    @Test
    void ncclConfFromFactsKeepsOtherLines() {
        Map<String, String> s = NcclConf.settings(NICS, "eno1", 128);
        assertEquals("=mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1", s.get("NCCL_IB_HCA"));
        assertEquals("3", s.get("NCCL_IB_GID_INDEX"));
        assertEquals("eno1", s.get("NCCL_SOCKET_IFNAME"));
        assertEquals("128", s.get("NCCL_IB_TC"));
        String cur = "NCCL_DEBUG=WARN\nNCCL_IB_TC=106\n";
        String next = NcclConf.apply(cur, s);
        assertTrue(next.startsWith("NCCL_DEBUG=WARN\nNCCL_IB_TC=128\nNCCL_IB_HCA==mlx5_0:1,"), next);
        assertEquals(next, NcclConf.apply(next, s), "idempotent");
        RoceNic noRdma = new RoceNic("r0", "10.0.0.1", 24, "", 1500, "UP", true, "", 0, -1, 0);
        assertTrue(NcclConf.settings(List.of(noRdma), "eth0", 128).isEmpty());
    }

    @Test
    void ncclTrafficClassOnlyWhenSetAndExistingLineKept() {
        Map<String, String> s = NcclConf.settings(NICS, "eno1", null);
        assertFalse(s.containsKey("NCCL_IB_TC"), s.toString());
        String next = NcclConf.apply("NCCL_IB_TC=106\nNCCL_IB_HCA=mlx5_0\n", s);
        assertTrue(next.startsWith("NCCL_IB_TC=106\nNCCL_IB_HCA==mlx5_0:1,"), next);
        assertEquals(1, next.split("NCCL_IB_HCA=", -1).length - 1, next);
        assertEquals(next, NcclConf.apply(next, s), "idempotent with the == value");
    }

    @Test
    void ncclRemovalTakesRocectlsKeysAndAFileOnlyRocectlWroteGoes() {
        Map<String, String> s = NcclConf.settings(NICS, "eno1", 128);
        String mine = NcclConf.apply("", s);
        assertNull(NcclConf.remove(mine, List.of("NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_SOCKET_IFNAME", "NCCL_IB_TC")),
                "a file rocectl created, with nothing of anyone else's, goes");
        String tc = NcclConf.remove(mine, NcclConf.KEYS);
        assertTrue(tc != null && tc.endsWith("\nNCCL_IB_TC=128\n") && !tc.contains("NCCL_IB_HCA"),
                "NCCL_IB_TC stays unless it is set for the task: " + tc);
        String shared = NcclConf.apply("# site\nNCCL_DEBUG=WARN\n\n# ours\nNCCL_IB_HCA=mlx5_9\n", s);
        assertEquals("# site\nNCCL_DEBUG=WARN\n\n# ours\nNCCL_IB_TC=128\n",
                NcclConf.remove(shared, NcclConf.KEYS), "every other line, comments and blank lines stay, in order");
        assertEquals("NCCL_DEBUG=WARN\n", NcclConf.remove("NCCL_DEBUG=WARN\n", NcclConf.KEYS), "nothing of rocectl's: unchanged");
        assertEquals("", NcclConf.remove("", NcclConf.KEYS), "an empty file is nobody's to remove");
        String headerOnly = NcclConf.apply("", s).lines().findFirst().orElseThrow() + "\n";
        assertEquals(headerOnly, NcclConf.remove(headerOnly, NcclConf.KEYS), "no key of rocectl's in it: left alone");
        assertEquals("# NCCL_IB_HCA=mlx5_0\nX=1", NcclConf.remove("# NCCL_IB_HCA=mlx5_0\nX=1", NcclConf.KEYS),
                "a commented-out key is a comment");
    }
}
