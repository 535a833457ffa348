package io.rocectl.lab;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a lab is made of, as recorded in {@code <dir>/state.json}: read by status/down/break/exec,
 * by tests and by the demo to find each host's namespace, NICs, management IP and PIDs.
 *
 * @param name            lab name (prefix of every namespace and root-namespace link)
 * @param dir             state directory (absolute)
 * @param fabric          the one fabric subnet all fabric NICs share
 * @param mgmt            the management subnet
 * @param mgmtBridge      management bridge in the root namespace
 * @param mgmtGateway     address of the management bridge (the control node's side)
 * @param switchNamespace namespace of the fabric switch
 * @param switchBridge    bridge name inside the switch namespace
 * @param netcfg          {@code none} or {@code networkd}: how hosts persist network config
 * @param gcThresh        neighbour-table limits before and after the lab raised them
 *                        (keys {@code before.gc_thresh1}.., {@code after.gc_thresh1}..)
 * @param complete        false while bring-up is in progress (a partial lab is still torn down by down)
 * @param hosts           the hosts, gpu01 first
 * @param slurm           the lab's Slurm cluster and its PIDs ({@code lab up --slurm}), or null without one
 */
public record LabState(String name, String dir, String fabric, String mgmt, String mgmtBridge, String mgmtGateway,
                       String switchNamespace, String switchBridge, String netcfg, Map<String, Long> gcThresh,
                       boolean complete, List<LabHost> hosts, LabSlurm slurm) {

    public static final String FILE = "state.json";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @com.fasterxml.jackson.annotation.JsonCreator
    public LabState {
        hosts = List.copyOf(hosts);
        gcThresh = Map.copyOf(gcThresh);
    }

    /** A lab without Slurm. */
    public LabState(String name, String dir, String fabric, String mgmt, String mgmtBridge, String mgmtGateway,
                    String switchNamespace, String switchBridge, String netcfg, Map<String, Long> gcThresh,
                    boolean complete, List<LabHost> hosts) {
        this(name, dir, fabric, mgmt, mgmtBridge, mgmtGateway, switchNamespace, switchBridge, netcfg, gcThresh, complete,
                hosts, null);
    }

    /** Reads {@code dir/state.json}; InputError when there is no lab there. */
    public static LabState load(Path dir) {
        Path f = dir.resolve(FILE);
        if (!Files.isRegularFile(f)) throw new InputError("no lab in " + dir + " (no " + FILE + ")");
        try {
            return JSON.readValue(f.toFile(), LabState.class);
        } catch (IOException e) {
            throw new InputError(f.toString(), 0, 0, "unreadable lab state: " + e.getMessage());
        }
    }

    /** Writes the state file atomically. */
    public void save() {
        Path f = path().resolve(FILE);
        Path tmp = path().resolve(FILE + ".tmp");
        try {
            Files.createDirectories(path());
            JSON.writeValue(tmp.toFile(), this);
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path path() { return Path.of(dir); }
    public Path inventory() { return path().resolve("inventory.ini"); }
    public Path clientKey() { return path().resolve("id_ed25519"); }
    public Path knownHosts() { return path().resolve("known_hosts"); }
    /** Per-host directory: sshd config, host key, pid and log files, the clean /root, the /etc overlay. */
    public Path hostDir(String host) { return path().resolve("hosts").resolve(host); }

    /** The directory, in a host's {@link #hostDir}, that the host sees as its /run/rocectl. */
    public static final String RUN_ROCECTL = "run-rocectl";

    /** What the host sees as /run/rocectl (where its rollback timers live), seen from the machine. */
    public Path hostRunRocectl(String host) { return hostDir(host).resolve(RUN_ROCECTL); }
    /** The host's {@code /etc/netns/<ns>} directory (bind-mounted over /etc entries inside the host). */
    public static Path netnsEtc(String namespace) { return Path.of("/etc/netns", namespace); }

    /** The host of that name; InputError with a suggestion otherwise. */
    public LabHost host(String hostName) {
        for (LabHost h : hosts) if (h.name().equals(hostName)) return h;
        List<String> known = hosts.stream().map(LabHost::name).toList();
        throw new InputError("option --host", 0, 0, "lab " + name + " has no host '" + hostName + "'"
                + DidYouMean.hint(hostName, known));
    }

    public LabState withHost(LabHost changed) {
        List<LabHost> hs = new ArrayList<>();
        for (LabHost h : hosts) hs.add(h.name().equals(changed.name()) ? changed : h);
        return new LabState(name, dir, fabric, mgmt, mgmtBridge, mgmtGateway, switchNamespace, switchBridge, netcfg,
                gcThresh, complete, hs, slurm);
    }

    public LabState withComplete(boolean c) {
        return new LabState(name, dir, fabric, mgmt, mgmtBridge, mgmtGateway, switchNamespace, switchBridge, netcfg,
                gcThresh, c, hosts, slurm);
    }

    public LabState withSlurm(LabSlurm sl) {
        return new LabState(name, dir, fabric, mgmt, mgmtBridge, mgmtGateway, switchNamespace, switchBridge, netcfg,
                gcThresh, complete, hosts, sl);
    }

    /** The lab's slurm.conf (written by {@code lab up --slurm}). */
    public Path slurmConf() { return path().resolve(SlurmLab.CONF); }

    public LabState withGcThresh(Map<String, Long> g) {
        return new LabState(name, dir, fabric, mgmt, mgmtBridge, mgmtGateway, switchNamespace, switchBridge, netcfg,
                g, complete, hosts, slurm);
    }
}
