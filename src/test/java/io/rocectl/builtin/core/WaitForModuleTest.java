package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitForModuleTest {
    private final WaitForModule m = new WaitForModule();

    @TempDir
    Path dir;

    @Test
    void portOpenThenClosed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
            ModuleResult open = Ctx.run(m, Map.of("port", port, "timeout", 5));
            assertFalse(open.failed(), open.msg());
            assertFalse(open.changed());
            ModuleResult notClosed = Ctx.run(m, Map.of("port", port, "state", "stopped", "timeout", 1));
            assertTrue(notClosed.failed());
            assertEquals("Timeout when waiting for 127.0.0.1:" + port, notClosed.msg());
        }
        ModuleResult closed = Ctx.run(m, Map.of("port", port, "state", "stopped", "timeout", 5));
        assertFalse(closed.failed(), closed.msg());
    }

    @Test
    void pathAppearsWithContent() throws Exception {
        Path f = dir.resolve("ready; $(touch pwned)");
        Files.writeString(f, "status: starting\n");
        // a delay, not a bound: whenever the content comes, the wait (up to 60 s) must see it
        Thread writer = new Thread(() -> {
            try {
                Thread.sleep(700);
                Files.writeString(f, "status: up\n");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        ModuleResult r = Ctx.run(m, Map.of("path", f.toString(), "search_regex", "status: (up|ok)", "timeout", 60));
        writer.join();
        assertFalse(r.failed(), r.msg());
        assertFalse(Files.exists(dir.resolve("pwned")));
        ModuleResult gone = Ctx.run(m, Map.of("path", f.toString(), "state", "absent", "timeout", 1, "msg", "still there"));
        assertTrue(gone.failed());
        assertEquals("still there", gone.msg());
    }

    @Test
    void checkModeAndBadArgs() throws Exception {
        assertEquals(true, Ctx.check(m, Map.of("port", 1)).data().get("skipped"));
        // recorded: ansible localhost -c local -m wait_for -a "port=1 path=/x timeout=1" (ansible-core 2.14.18)
        assertEquals("port and path parameter can not both be passed to wait_for",
                assertThrows(ModuleException.class, () -> Ctx.run(m, Map.of("port", 1, "path", "/x"))).getMessage());
        assertEquals("state must be one of started, stopped, present, absent; got 'up'",
                assertThrows(ModuleException.class, () -> Ctx.run(m, Map.of("port", 1, "state", "up"))).getMessage());
    }

    @Test
    void neitherPortNorPathSleepsDelayPlusTimeoutAsAnsible() throws Exception {
        // recorded: ansible localhost -c local -m wait_for -a "timeout=1 delay=1" -> SUCCESS,
        // changed false, elapsed 2, path null, port null (ansible-core 2.14.18)
        long t0 = System.nanoTime();
        ModuleResult r = Ctx.run(m, Map.of("timeout", 1, "delay", 1));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(r.failed(), r.msg());
        assertFalse(r.changed());
        assertTrue(ms >= 2000, "slept delay + timeout: " + ms + " ms");
        // Ansible's whole seconds: 2 on an idle machine, more when this thread woke late
        long elapsed = (Long) r.data().get("elapsed");
        assertTrue(elapsed >= 2 && elapsed <= ms / 1000, "elapsed " + elapsed + " of the " + ms + " ms slept");
        // Ansible registers state, and port and path as null (rocectl's results carry no null: empty)
        assertEquals("started", r.data().get("state"));
        assertTrue(r.data().containsKey("port") && r.data().containsKey("path"), r.data().toString());
        assertTrue(r.data().get("port") == null || "".equals(r.data().get("port")), r.data().toString());
    }
}
