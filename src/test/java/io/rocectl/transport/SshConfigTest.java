package io.rocectl.transport;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class SshConfigTest {
    private final SshConfig cfg = SshConfig.parse(List.of(
            "# comment",
            "Host gpu* !gpu99",
            "  User ops",
            "  Port 2222",
            "  IdentityFile ~/.ssh/gpu_ed25519",
            "Host gpu01",
            "  HostName 10.0.0.1",
            "  User root",
            "Host *",
            "  IdentityFile ~/.ssh/id_ed25519",
            "  User fallback"));

    @Test
    void firstValueWinsAsInOpenSsh() {
        assertEquals("ops", cfg.get("gpu01", "User"), "the first matching block wins, not the most specific");
        assertEquals("10.0.0.1", cfg.get("gpu01", "hostname"));
        assertEquals("2222", cfg.get("gpu07", "Port"));
        assertEquals(List.of("~/.ssh/gpu_ed25519", "~/.ssh/id_ed25519"), cfg.all("gpu07", "IdentityFile"));
    }

    @Test
    void negatedPatternsExclude() {
        assertEquals("fallback", cfg.get("gpu99", "User"));
        assertNull(cfg.get("gpu99", "Port"));
        assertNull(cfg.get("mgmt", "HostName"));
    }
}
