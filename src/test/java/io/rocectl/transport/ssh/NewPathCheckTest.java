package io.rocectl.transport.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Await;
import io.rocectl.testing.MinaHosts;
import io.rocectl.transport.Connection;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.LocalConnection;
import io.rocectl.transport.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit-confirm path check: a NEW TCP connection to the session's SSH server that reads its
 * greeting, without a second login (the server sees one more connection, still one login), and
 * nothing at all for a connection that crosses no network.
 */
class NewPathCheckTest {
    @TempDir
    Path tmp;

    @Test
    void aNewConnectionGetsTheGreetingWithoutLoggingIn() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            SshConnector c = new SshConnector(Duration.ofSeconds(5), 0, 1);
            try (Connection conn = c.connect(new Target("node01", "127.0.0.1", hosts.port(0),
                    System.getProperty("user.name"), List.of(hosts.key()), hosts.knownHosts(), HostKeyChecking.STRICT))) {
                assertEquals(1, hosts.sessions.get());
                assertEquals(1, hosts.logins.get());
                assertTrue(conn.hasNetworkPath());
                assertNull(conn.checkNewPath(Duration.ofSeconds(5)));
                Await.until("a new connection reached the server (sessions)", Await.LONG, hosts.sessions::get, n -> n >= 2);
                assertEquals(2, hosts.sessions.get(), "one new connection");
                assertEquals(1, hosts.logins.get(), "and did not log in");
                assertTrue(conn.exec(io.rocectl.transport.Cmd.of("true"), Duration.ofSeconds(5)).ok(), "the session is untouched");
            }
        }
    }

    @Test
    void aServerThatIsGoneIsNamed() throws Exception {
        SshConnector c = new SshConnector(Duration.ofSeconds(5), 0, 1);
        MinaHosts hosts = new MinaHosts(tmp, 1);
        Connection conn = c.connect(new Target("node01", "127.0.0.1", hosts.port(0),
                System.getProperty("user.name"), List.of(hosts.key()), hosts.knownHosts(), HostKeyChecking.STRICT));
        int port = hosts.port(0);
        try {
            hosts.close(); // the listener is gone: a new flow cannot be made
            String why = conn.checkNewPath(Duration.ofSeconds(5));
            assertTrue(why != null && why.contains("127.0.0.1:" + port), String.valueOf(why));
        } finally {
            conn.close();
        }
    }

    @Test
    void aLocalConnectionHasNoPathToCheck() {
        assertFalse(new LocalConnection("local").hasNetworkPath());
    }
}
