package io.rocectl.op;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArpPlannerTest {
    static final List<String> NICS = List.of("ens1f0np0", "ens2f0np0");

    /** A fresh host as /proc/sys shows it: everything 0, kernel default thresholds. */
    static Map<String, String> fresh() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String i : List.of("all", "default", "lo", "eno1", "ens1f0np0", "ens2f0np0")) {
            m.put("net/ipv4/conf/" + i + "/arp_ignore", "0");
            m.put("net/ipv4/conf/" + i + "/arp_announce", "0");
            m.put("net/ipv4/conf/" + i + "/rp_filter", i.equals("all") ? "1" : "0");
            m.put("net/ipv4/conf/" + i + "/arp_accept", "0");
        }
        m.put("net/ipv4/neigh/default/gc_thresh1", "128");
        m.put("net/ipv4/neigh/default/gc_thresh2", "512");
        m.put("net/ipv4/neigh/default/gc_thresh3", "1024");
        return m;
    }

    @Test
    void freshHostGetsEverythingLiveAndInTheFileAndAFlush() {
        ArpPlan p = ArpPlanner.plan(new ArpPlanner.Input(NICS, fresh(), "", null, null, 256));
        Map<String, String> want = new LinkedHashMap<>();
        for (String i : List.of("all", "ens1f0np0", "ens2f0np0")) {
            want.put("net/ipv4/conf/" + i + "/arp_ignore", "1");
            want.put("net/ipv4/conf/" + i + "/arp_announce", "2");
        }
        // 2 local NICs x 256 peer NICs = 512 entries -> 512 / 1024 / 2048
        want.put("net/ipv4/neigh/default/gc_thresh1", "512");
        want.put("net/ipv4/neigh/default/gc_thresh2", "1024");
        want.put("net/ipv4/neigh/default/gc_thresh3", "2048");
        assertEquals(want, p.live());
        assertEquals(NICS, p.flush());
        assertTrue(p.fileChange());
        assertTrue(p.fileContent().contains("net.ipv4.conf.all.arp_ignore = 1\n"));
        assertTrue(p.fileContent().contains("net.ipv4.neigh.default.gc_thresh3 = 2048\n"));
        assertFalse(p.fileContent().contains("eno1"), "management NIC untouched");
        assertFalse(p.fileContent().contains("rp_filter"), "rp_filter untouched unless asked");
    }

    @Test
    void alreadyRightPlansNothing() {
        Map<String, String> live = fresh();
        ArpPlan first = ArpPlanner.plan(new ArpPlanner.Input(NICS, live, "", 2, null, 256));
        live.putAll(first.live());
        ArpPlan again = ArpPlanner.plan(new ArpPlanner.Input(NICS, live, first.fileContent(), 2, null, 256));
        assertTrue(again.empty(), again.diff().toString());
        assertEquals(List.of(), again.flush());
    }

    @Test
    void higherExistingThresholdsAreNeverLowered() {
        Map<String, String> live = fresh();
        live.put("net/ipv4/neigh/default/gc_thresh3", "16384");
        ArpPlan p = ArpPlanner.plan(new ArpPlanner.Input(NICS, live, "", null, null, 256));
        assertFalse(p.live().containsKey("net/ipv4/neigh/default/gc_thresh3"));
        assertTrue(p.fileContent().contains("net.ipv4.neigh.default.gc_thresh3 = 16384\n"));
    }

    @Test
    void fileOnlyChangeDoesNotFlush() {
        Map<String, String> live = fresh();
        ArpPlan first = ArpPlanner.plan(new ArpPlanner.Input(NICS, live, "", null, null, 0));
        live.putAll(first.live());
        ArpPlan p = ArpPlanner.plan(new ArpPlanner.Input(NICS, live, "# someone emptied it\n", null, null, 0));
        assertTrue(p.fileChange());
        assertTrue(p.live().isEmpty());
        assertEquals(List.of(), p.flush());
    }

    @Test
    void missingKeysAreSkippedWithANote() {
        Map<String, String> live = fresh();
        live.remove("net/ipv4/neigh/default/gc_thresh1");
        live.remove("net/ipv4/neigh/default/gc_thresh2");
        live.remove("net/ipv4/neigh/default/gc_thresh3");
        ArpPlan p = ArpPlanner.plan(new ArpPlanner.Input(NICS, live, "", null, null, 256));
        assertEquals(3, p.notes().size());
        assertFalse(p.fileContent().contains("gc_thresh"));
    }

    @Test
    void vlanNamesUseTheSlashForm() {
        assertEquals("net/ipv4/conf/ens1f0.100/arp_ignore", ArpPlanner.key("ens1f0.100", "arp_ignore"));
        assertEquals("net.ipv4.conf.ens1f0.arp_ignore", ArpPlanner.key("ens1f0", "arp_ignore"));
        assertEquals("net/ipv4/conf/ens1f0.100/arp_ignore", SysctlFile.path("net/ipv4/conf/ens1f0.100/arp_ignore"));
    }

    @Test
    void thresholds() {
        assertEquals(List.of(128, 512, 1024), List.of(ArpPlanner.thresholds(8)[0], ArpPlanner.thresholds(8)[1], ArpPlanner.thresholds(8)[2]));
        int[] t = ArpPlanner.thresholds(8 * 32 * 8);
        assertEquals(List.of(2048, 4096, 8192), List.of(t[0], t[1], t[2]));
    }

    @Test
    void sysctlFileKeepsCommentsAndOtherKeys() {
        String in = "# mine\nvm.swappiness=10\nnet.ipv4.conf.all.arp_ignore=0\nnet/ipv4/conf/all/arp_ignore = 0\n";
        String out = SysctlFile.set(in, Map.of("net.ipv4.conf.all.arp_ignore", "1"));
        assertEquals("# mine\nvm.swappiness=10\nnet.ipv4.conf.all.arp_ignore = 1\n", out);
        assertEquals("1", SysctlFile.get(out, "net/ipv4/conf/all/arp_ignore"));
        assertEquals("# mine\nvm.swappiness=10\n", SysctlFile.remove(out, "net.ipv4.conf.all.arp_ignore"));
    }
}
