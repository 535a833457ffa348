package io.rocectl.transport;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.testing.Await;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one bounded fan-out over the engine's real connection pool and local connections (real
 * processes): at most {@code forks} hosts at once, every host's value or reason in the order given,
 * an unreachable host dropped from the pool, a command past its deadline, work that fails on one host.
 */
class FanOutTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** A pool whose hosts named {@code down*} cannot be reached; counts the connections opened per host. */
    private static ConnectionPool pool(Map<String, AtomicInteger> opened) {
        return new ConnectionPool(h -> {
            opened.computeIfAbsent(h, k -> new AtomicInteger()).incrementAndGet();
            if (h.startsWith("down")) throw new TransportException("connect " + h + ": no route to host");
            return new LocalConnection(h);
        });
    }

    private static List<String> hosts(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) out.add(String.format("n%02d", i));
        return out;
    }

    @Test
    void atMostForksHostsRunAtOnceAndTheForksAreUsed() throws Exception {
        int forks = 3;
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        List<String> hosts = hosts(10);
        try (ConnectionPool pool = pool(new ConcurrentHashMap<>())) {
            Map<String, FanOut.Result<String>> res = FanOut.each(hosts, pool, forks, (h, c) -> {
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                started.incrementAndGet();
                try {
                    // the first hosts wait until the forks are all busy: the bound is reached, not just kept
                    Await.until("all " + forks + " forks busy", Await.LONG, () -> started.get() >= forks);
                    return c.exec(Cmd.of("echo", h), TIMEOUT).stdout().strip();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
            assertEquals(forks, most.get(), "hosts in flight at once");
            assertEquals(hosts, List.copyOf(res.keySet()), "one result per host, in the order given");
            res.forEach((h, r) -> {
                assertTrue(r.done(), h + ": " + r);
                assertEquals(h, r.value(), "each host's own value");
            });
        }
    }

    @Test
    void anUnreachableHostHasItsReasonAndIsDroppedSoTheNextUseReconnects() throws Exception {
        Map<String, AtomicInteger> opened = new ConcurrentHashMap<>();
        try (ConnectionPool pool = pool(opened)) {
            Map<String, FanOut.Result<Integer>> res = FanOut.each(List.of("n01", "down1", "n02"), pool, 2,
                    (h, c) -> c.exec(Cmd.of("true"), TIMEOUT).exitCode());
            FanOut.Result<Integer> down = res.get("down1");
            assertFalse(down.done());
            assertNull(down.value());
            assertEquals("connect down1: no route to host", down.unreachable());
            assertNull(down.timeout());
            assertNull(down.error());
            assertEquals(0, res.get("n01").value());
            assertEquals(0, res.get("n02").value());
            assertThrows(TransportException.class, () -> pool.get("down1"));
            assertEquals(2, opened.get("down1").get(), "dropped: the next use tried to connect again");
            assertEquals(1, opened.get("n01").get(), "a reachable host keeps its one connection");
        }
    }

    @Test
    void aCommandPastItsDeadlineIsATimeoutAndTheOtherHostsFinish() throws Exception {
        try (ConnectionPool pool = pool(new ConcurrentHashMap<>())) {
            Map<String, FanOut.Outcome> res = FanOut.run(List.of("slow", "n01"),
                    h -> h.equals("slow") ? Cmd.of("sleep", "60") : Cmd.of("echo", "hi"), pool, 2, Duration.ofMillis(300));
            FanOut.Outcome slow = res.get("slow");
            assertNull(slow.result());
            assertNull(slow.unreachable());
            assertTrue(slow.timeout().startsWith("command timed out"), slow.timeout());
            assertFalse(slow.ok());
            assertTrue(res.get("n01").ok());
            assertEquals("hi\n", res.get("n01").result().stdout());
        }
    }

    @Test
    void workThatFailsOnOneHostIsThatHostsErrorOnly() throws Exception {
        try (ConnectionPool pool = pool(new ConcurrentHashMap<>())) {
            Map<String, FanOut.Result<String>> res = FanOut.each(hosts(4), pool, 2, (h, c) -> {
                if (h.equals("n03")) throw new IllegalArgumentException("cannot parse the output of " + h);
                return c.host();
            });
            assertEquals("cannot parse the output of n03", res.get("n03").error());
            assertNull(res.get("n03").unreachable());
            for (String h : List.of("n01", "n02", "n04")) assertEquals(h, res.get(h).value());
        }
    }

    @Test
    void eachHostIsToldAsItFinishesAndNoHostsIsNoWork() throws Exception {
        Set<String> told = ConcurrentHashMap.newKeySet();
        try (ConnectionPool pool = pool(new ConcurrentHashMap<>())) {
            Map<String, FanOut.Outcome> res = FanOut.run(List.of("n01", "down1", "n02"), h -> Cmd.of("true"), pool, 3,
                    TIMEOUT, o -> told.add(o.host()));
            assertEquals(Set.of("n01", "down1", "n02"), told);
            assertEquals("connect down1: no route to host", res.get("down1").unreachable());
            assertTrue(FanOut.each(List.of(), pool, 4, (h, c) -> h).isEmpty());
        }
    }

    @Test
    void aCommandThatCannotBeMadeIsABugAndIsThrown() throws Exception {
        try (ConnectionPool pool = pool(new ConcurrentHashMap<>())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> FanOut.run(List.of("n01"), h -> {
                throw new IllegalArgumentException("no command for " + h);
            }, pool, 1, TIMEOUT));
            assertEquals("n01: no command for n01", e.getMessage());
        }
    }
}
