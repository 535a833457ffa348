package io.rocectl.remediate;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.Cause;
import io.rocectl.probe.HeavyProbe;
import io.rocectl.probe.HeavyResult;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairSet;
import io.rocectl.probe.ProbeGraph;
import io.rocectl.probe.RoundSchedule;
import io.rocectl.testing.MinaHosts;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.Target;
import io.rocectl.transport.ssh.SshConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The heavy-probe rounds over real SSH. rping cannot run without RDMA hardware, so each host's
 * PATH starts with a stand-in {@code rping} that behaves like the real one at the process level
 * (server waits for a client, client exits 0 or prints the seed's RDMA CM error and exits 1); the
 * orchestration, timeouts, parsing and diagnosis keys are the real code.
 */
class HeavyRoundsTest {
    @TempDir
    Path tmp;

    @Test
    void everyPairRunsOnceAndTheBrokenClientIsReported() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path rping = bin.resolve("rping");
        Files.writeString(rping, """
                #!/bin/sh
                # stand-in for rping: -s = server, -c -I SRC -a DST = client
                case " $* " in
                  *" -s "*) sleep 0.3; exit 0 ;;
                esac
                while [ $# -gt 0 ]; do [ "$1" = -I ] && src=$2; shift; done
                if [ "$src" = 10.0.0.3 ]; then
                  echo "cma event RDMA_CM_EVENT_ADDR_ERROR, error -110"; exit 1
                fi
                echo "ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ"; exit 0
                """);
        rping.toFile().setExecutable(true);
        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(tmp.resolve("hosts")), 4,
                Map.of("PATH", bin + ":" + System.getenv("PATH")))) {
            List<NicEndpoint> eps = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                eps.add(new NicEndpoint(hosts.names().get(i), "ens1f0", "10.0.0." + (i + 1), 24,
                        String.format("02:00:00:00:00:%02x", i + 1), "mlx5_0", 3, 0));
            }
            ProbeGraph g = ProbeGraph.build(eps, PairSet.RAIL);
            RoundSchedule sched = g.schedule(18515);
            SshConnector c = new SshConnector(Duration.ofSeconds(5), 0, 1);
            try (ConnectionPool pool = new ConnectionPool(h -> c.connect(new Target(h, "127.0.0.1",
                    hosts.port(hosts.names().indexOf(h)), System.getProperty("user.name"), List.of(hosts.key()),
                    hosts.knownHosts(), HostKeyChecking.STRICT)))) {
                Map<String, HeavyResult> res = new HeavyRounds(pool, 8, 10).run(sched, HeavyProbe.Tool.RPING);
                assertEquals(3, sched.rounds(), "4 hosts: circle method, n-1 rounds");
                assertEquals(6, res.size(), "every unordered pair once");
                long failed = res.values().stream().filter(r -> r.status() == HeavyResult.Status.FAILED).count();
                res.forEach((k, r) -> {
                    boolean clientIsBroken = k.split(" ")[1].equals("10.0.0.3");
                    assertEquals(clientIsBroken ? HeavyResult.Status.FAILED : HeavyResult.Status.OK, r.status(), k);
                    if (clientIsBroken) assertEquals(Cause.RDMA_CM_ADDR_ERROR, r.cause(), k);
                });
                assertEquals(res.keySet().stream().filter(k -> k.split(" ")[1].equals("10.0.0.3")).count(), failed);
            }
        }
    }
}
