package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 point 5 on a 2 x 2 lab: explain -i resolves the peer IP and the GIDs of real NCCL lines
 * (their addresses swapped for the lab's) to host:NIC and prints the doctor/probe command, which
 * runs as printed; doctor takes an IP or HOST:mlx5_N, and says in one line what does not exist.
 */
@Tag("lab")
class ExplainNicLabTest {
    /** Real lines (src/test/resources/explain/corpus.tsv, NVIDIA/nccl#1814, nccl-tests#252 and #166). */
    static final String RETRY = "hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer "
            + "172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) localGid ::ffff:29.87.88.182 "
            + "remoteGids::ffff:29.87.4.221";
    static final String PROTECTION = "kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer "
            + "10.0.35.1<49189> with error 4, opcode 5327, len 5327, vendor err 81 (Send)";
    static final String SOCKET = "ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to "
            + "10.0.0.2<45763> failed : Software caused connection abort";

    static LabState s;
    static String inv;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("explainnic", 2, 2, "none");
        inv = s.inventory().toString();
        LabTestSupport.fix(s);
    }

    @AfterAll
    static void down() throws Exception {
        if (s != null) LabTestSupport.downAndCheck(s);
    }

    static String ip(String host, String nic) {
        return s.host(host).nics().stream().filter(n -> n.name().equals(nic)).findFirst().orElseThrow().ip();
    }

    /** The lines of {@code out} from the finding {@code id}'s head to the next head. */
    static String block(String out, String id) {
        int from = out.indexOf("] " + id + "  x");
        assertTrue(from >= 0, "no finding " + id + " in:\n" + out);
        int next = out.indexOf("\n[", from);
        return out.substring(from, next < 0 ? out.length() : next);
    }

    @Test
    void explainNamesTheNicsAndTheDoctorCommandRunsAsPrinted(@TempDir Path dir) throws Exception {
        String a = ip("gpu01", "ens2f0"), b = ip("gpu02", "ens2f0"), mgmt2 = s.host("gpu02").mgmtIp();
        String log = String.join("\n",
                RETRY.replace("172.36.143.59", mgmt2).replace("29.87.88.182", a).replace("29.87.4.221", b),
                PROTECTION.replace("10.0.35.1", ip("gpu02", "ens1f0")),
                SOCKET.replace("10.0.0.2", "192.0.2.7")) + "\n";
        Path f = Files.writeString(dir.resolve("nccl.log"), log);
        Cli.Result r = Cli.run("explain", "-i", inv, "--file", f.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());

        String retry = block(r.out(), "retry-exceeded");
        assertTrue(retry.contains("  local:   gpu01:ens2f0 (localGid " + a + ", mlx5_1)\n"), retry);
        assertTrue(retry.contains("  remote:  gpu02:ens2f0 (remoteGids " + b + ", mlx5_1)\n"), retry);
        assertTrue(retry.contains("  peer:    gpu02 (its management address " + mgmt2 + ")\n"), retry);
        String doctor = "rocectl doctor -i " + inv + " gpu01:ens2f0 gpu02:ens2f0";
        assertTrue(retry.contains("  run:     " + doctor + "\n"), retry);
        assertTrue(retry.contains("  health:  rocectl health -i " + inv + "   (a clean probe does not clear this"), retry);

        String prot = block(r.out(), "local-protection-error");
        assertTrue(prot.contains("  remote:  gpu02:ens1f0 (peer " + ip("gpu02", "ens1f0") + ")\n"), prot);
        assertTrue(prot.contains("  run:     rocectl probe -i " + inv + " -l gpu02\n"), prot);
        assertTrue(!prot.contains("health:"), "a memory registration fault is not a port fault: " + prot);

        String sock = block(r.out(), "nccl-socket-error");
        assertTrue(sock.contains("  peer:    192.0.2.7 is neither a RoCE NIC nor a management address in the inventory"), sock);
        assertTrue(sock.contains("  run:     nothing to name"), sock);

        // the printed command is the next step: run it as printed (healthy lab: every layer passes)
        List<String> argv = Arrays.asList(doctor.substring("rocectl ".length()).split(" "));
        Cli.Result d = Cli.run(argv.toArray(String[]::new));
        assertEquals(0, d.exitCode(), d.out() + d.err());
        assertTrue(d.out().contains("pair gpu01:ens2f0 (" + a + ", "), d.out());
    }

    @Test
    void doctorTakesAnIpAndAnRdmaDevice() {
        String a = ip("gpu01", "ens1f0");
        Cli.Result d = Cli.run("doctor", "-i", inv, a, "gpu02:mlx5_0");
        assertEquals(0, d.exitCode(), d.out() + d.err());
        assertTrue(d.out().contains("resolved: " + a + " = gpu01:ens1f0, gpu02:mlx5_0 = gpu02:ens1f0\n"), d.out());
        assertTrue(d.out().contains("pair gpu01:ens1f0 (" + a + ", "), d.out());
        assertTrue(d.out().contains("gpu01:ens1f0 -> gpu02:ens1f0 (same rail)"), d.out());
    }

    static void refused(String what, String expected, String... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(5, r.exitCode(), what + ": " + r.out() + r.err());
        assertTrue(r.err().contains(expected), what + ": " + r.err());
        assertEquals(1, r.err().strip().lines().count(), what + " is one line: " + r.err());
        assertTrue(!r.out().contains("pair "), what + ": no pair probed: " + r.out());
    }

    @Test
    void doctorSaysWhatDoesNotExistAndWhatDoes() {
        String a = ip("gpu01", "ens1f0");
        refused("unknown IP", "no RoCE NIC has IP 192.0.2.7 on the 2 host(s) read (RoCE NICs: gpu01:ens1f0 (mlx5_0, " + a
                + "), gpu01:ens2f0 (mlx5_1, ", "doctor", "-i", inv, "192.0.2.7", "gpu02:ens1f0");
        refused("unknown RDMA device", "'mlx5_7' is neither a RoCE NIC of gpu01 nor the RDMA device of one (RoCE NICs: "
                + "gpu01:ens1f0 (mlx5_0, " + a + ")", "doctor", "-i", inv, "gpu01:mlx5_7", "gpu02:ens1f0");
        String mgmt1 = s.host("gpu01").mgmtIp();
        refused("management IP", "IP " + mgmt1 + " is the management address of gpu01, not a RoCE NIC (RoCE NICs of gpu01: "
                + "gpu01:ens1f0", "doctor", "-i", inv, mgmt1, "gpu02:ens1f0");
        refused("same NIC by IP and name", "'" + a + "' and 'gpu01:mlx5_0' are the same NIC gpu01:ens1f0",
                "doctor", "-i", inv, a, "gpu01:mlx5_0");
        refused("no NIC part", "expected HOST:NIC, HOST:mlx5_N or an IPv4 address, got 'gpu01'",
                "doctor", "-i", inv, "gpu01", "gpu02:ens1f0");
        refused("unknown host", "no host 'gpu09'", "doctor", "-i", inv, "gpu09:ens1f0", "gpu02:ens1f0");
    }
}
