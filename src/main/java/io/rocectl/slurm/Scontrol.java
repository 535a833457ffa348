package io.rocectl.slurm;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads and changes Slurm node states over a connection (this machine, or a controller or login
 * node over SSH): every command is an argv list, so a node name or reason is one word wherever it
 * runs; with a slurm.conf path, it is given as {@code SLURM_CONF} through {@code env}.
 */
public final class Scontrol {
    /** Slurm could not be read or changed. */
    public static final class SlurmException extends Exception {
        private static final long serialVersionUID = 1L;

        public SlurmException(String message) {
            super(message);
        }
    }

    private final Connection conn;
    private final String slurmConf;
    private final Duration timeout;

    /** @param slurmConf the slurm.conf to use, or null for the one Slurm finds itself */
    public Scontrol(Connection conn, String slurmConf, Duration timeout) {
        this.conn = conn;
        this.slurmConf = slurmConf;
        this.timeout = timeout;
    }

    /** Every node Slurm knows, with state and reason. */
    public Map<String, SlurmNode> nodes() throws SlurmException, InterruptedException {
        return SlurmNode.parse(run("sinfo", "-h", "-N", "-o", SlurmNode.SINFO_FORMAT));
    }

    public void drain(String node, String reason) throws SlurmException, InterruptedException {
        run("scontrol", "update", "NodeName=" + node, "State=DRAIN", "Reason=" + reason);
    }

    public void resume(String node) throws SlurmException, InterruptedException {
        run("scontrol", "update", "NodeName=" + node, "State=RESUME");
    }

    /** The argv of a Slurm command as it runs (with {@code env SLURM_CONF=...} first when a conf is set). */
    public List<String> argv(String... command) {
        List<String> a = new ArrayList<>();
        if (slurmConf != null) a.addAll(List.of("env", "SLURM_CONF=" + slurmConf));
        a.addAll(List.of(command));
        return a;
    }

    private String run(String... command) throws SlurmException, InterruptedException {
        List<String> argv = argv(command);
        ExecResult r;
        try {
            r = conn.exec(Cmd.of(argv), timeout);
        } catch (TransportException | CommandTimeoutException e) {
            throw new SlurmException(command[0] + " on " + conn.host() + ": " + e.getMessage());
        }
        if (!r.ok()) {
            String err = (r.stderr() + r.stdout()).strip();
            throw new SlurmException(String.join(" ", command) + " on " + conn.host() + " failed (exit " + r.exitCode() + "): "
                    + (err.isEmpty() ? "no output" : err.lines().findFirst().orElse("")));
        }
        return r.stdout();
    }
}
