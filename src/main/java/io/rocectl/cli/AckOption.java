package io.rocectl.cli;

import io.rocectl.ack.Ack;
import io.rocectl.ack.AckFile;
import io.rocectl.ack.AckList;
import io.rocectl.probe.Cause;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** {@code --ack FILE|none}: the acknowledgement list (see docs/operations.md, "Alerting and acknowledging a NIC"). */
public final class AckOption {
    /** The cause id of a port the health pass finds degraded (a down port is {@code link-down}). */
    static final String PORT_DEGRADED = "port-degraded";

    @Option(names = "--ack", paramLabel = "FILE|none",
            description = "The acknowledgement list (default /etc/rocectl/ack.yaml as root, else "
                    + "$XDG_CONFIG_HOME/rocectl/ack.yaml; none = ignore it): an acknowledged fault does not fail the run.")
    String ack;

    /** The file, or null for {@code none}. */
    Path file() {
        if ("none".equals(ack)) return null;
        if (ack != null) return Path.of(ack);
        if ("root".equals(System.getProperty("user.name"))) return Path.of("/etc/rocectl/ack.yaml");
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("rocectl").resolve("ack.yaml");
    }

    /** Every cause an acknowledgement may name: the probe's and {@value #PORT_DEGRADED}. */
    static Set<String> causes() {
        Set<String> s = new LinkedHashSet<>();
        for (Cause c : Cause.values()) s.add(c.id());
        s.add(PORT_DEGRADED);
        return s;
    }

    /** Every entry of the file (bad input, exit 5, when malformed). */
    List<Ack> all() {
        Path f = file();
        return f == null ? List.of() : AckFile.read(f, causes());
    }

    /** The entries of {@code cluster} at {@code now}. */
    AckList list(String cluster, Instant now) {
        return new AckList(all(), cluster, now);
    }
}
