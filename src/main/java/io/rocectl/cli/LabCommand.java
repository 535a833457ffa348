package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.lab.Cidr;
import io.rocectl.lab.Lab;
import io.rocectl.lab.LabException;
import io.rocectl.lab.LabSpec;
import io.rocectl.lab.LabState;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rocectl lab up|down|status|exec|break}: a local GPU cluster in network namespaces with real
 * sshd per host, reproducing the RoCE single-subnet failure. Register it as a subcommand of the
 * top-level command; every subcommand returns an {@link ExitCodes} value.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "Local GPU-cluster lab in network namespaces (real sshd, strict RDMA-like NICs, faults).",
        subcommands = {LabCommand.Up.class, LabCommand.Down.class, LabCommand.Status.class, LabCommand.Exec.class,
                LabCommand.Break.class})
public class LabCommand implements Callable<Integer> {

    public LabCommand() {}

    @Override
    public Integer call() {
        System.err.println("rocectl lab: give a subcommand: up, down, status, exec, break (see --help)");
        return ExitCodes.BAD_INPUT;
    }

    /** --name and --dir, shared by every subcommand. */
    public static class Target {
        @Option(names = "--name", defaultValue = LabSpec.DEFAULT_NAME, description = "lab name (default ${DEFAULT-VALUE})")
        String name;

        @Option(names = "--dir", description = "state directory (default /run/rocectl-lab/NAME)")
        Path dir;

        Path dir() {
            return dir != null ? dir.toAbsolutePath() : Lab.defaultDir(name);
        }

        LabState load() {
            return LabState.load(dir());
        }
    }

    /** Runs a body, mapping lab errors to one line and an exit code. */
    static int guard(Callable<Integer> body) {
        PrintStream err = System.err;
        try {
            return body.call();
        } catch (InputError e) {
            err.println("rocectl lab: " + e.oneLine());
            return ExitCodes.BAD_INPUT;
        } catch (LabException e) {
            err.println("rocectl lab: " + e.getMessage());
            return ExitCodes.INTERNAL;
        } catch (Exception e) {
            err.println("rocectl lab: internal error: " + e);
            return ExitCodes.INTERNAL;
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Create the lab and print where its inventory is.")
    public static class Up implements Callable<Integer> {
        @Mixin Target target;
        @Option(names = "--hosts", required = true, description = "number of hosts (gpu01..)") int hosts;
        @Option(names = "--nics", required = true, description = "fabric NICs per host (ens1f0..)") int nics;
        @Option(names = "--subnet", defaultValue = LabSpec.DEFAULT_FABRIC,
                description = "the one fabric subnet of all NICs (default ${DEFAULT-VALUE})") String subnet;
        @Option(names = "--mgmt-subnet", defaultValue = LabSpec.DEFAULT_MGMT,
                description = "management subnet (default ${DEFAULT-VALUE})") String mgmtSubnet;
        @Option(names = "--netcfg", defaultValue = "none", completionCandidates = Completions.Netcfg.class,
                description = "how hosts persist network config: none or networkd (default ${DEFAULT-VALUE})") String netcfg;
        @Option(names = "--slurm", description = "also run a real Slurm: munged, slurmctld on the management bridge, one slurmd"
                + " per host (installs Debian's slurmctld slurmd slurm-client munge when missing); see docs/slurm.md")
        boolean slurm;

        @Override
        public Integer call() {
            return guard(() -> {
                LabSpec spec = new LabSpec(target.name, hosts, nics, Cidr.parse(subnet), Cidr.parse(mgmtSubnet), netcfg,
                        target.dir()).withSlurm(slurm);
                Lab.up(spec, System.out);
                return ExitCodes.OK;
            });
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Remove the lab (idempotent).")
    public static class Down implements Callable<Integer> {
        @Mixin Target target;

        @Override
        public Integer call() {
            return guard(() -> {
                Lab.down(target.name, target.dir(), System.out);
                return ExitCodes.OK;
            });
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Hosts, NICs, sshd state (exit 2 when something is down).")
    public static class Status implements Callable<Integer> {
        @Mixin Target target;

        @Override
        public Integer call() {
            return guard(() -> Lab.status(target.load(), System.out) ? ExitCodes.OK : ExitCodes.FAILED);
        }
    }

    @Command(name = "exec", mixinStandardHelpOptions = true,
            description = "Run a command inside a host as an SSH login sees it: lab exec gpu01 -- ip route")
    public static class Exec implements Callable<Integer> {
        @Mixin Target target;
        @Parameters(index = "0", paramLabel = "HOST") String host;
        @Parameters(index = "1..*", paramLabel = "CMD", description = "command and arguments (default: sh)") List<String> command;

        @Override
        public Integer call() {
            return guard(() -> Lab.exec(target.load(), host, command == null ? List.of() : new ArrayList<>(command)));
        }
    }

    /** {@code lab break counters --kind}. */
    static final class CounterKinds implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return io.rocectl.lab.Faults.COUNTER_KINDS.iterator();
        }
    }

    @Command(name = "break", mixinStandardHelpOptions = true,
            description = "Inject a fault: link-down, link-up, arp-reset, rule-del, route-flush, neigh-poison, sshd-stop,"
                    + " sshd-start, loss PCT, mtu [MTU] (switch port, default 1280), reboot,"
                    + " counters --kind KIND [AMOUNT] (the NIC's emulated RDMA port); outliers for audit: rate [GBPS],"
                    + " firmware [VER], nic-mtu [MTU], sysctl KEY=VALUE.")
    public static class Break implements Callable<Integer> {
        @Mixin Target target;
        @Parameters(index = "0", paramLabel = "FAULT", completionCandidates = Completions.LabFaults.class) String fault;
        @Parameters(index = "1", arity = "0..1", paramLabel = "ARG",
                description = "loss: percentage; mtu, nic-mtu: the MTU; counters: how much the counters move; rate: Gb/s;"
                        + " firmware: the version; sysctl: KEY=VALUE") String arg;
        @Option(names = "--host", required = true) String host;
        @Option(names = "--nic", description = "one fabric NIC, e.g. ens2f0") String nic;
        @Option(names = "--kind", completionCandidates = CounterKinds.class,
                description = "counters: symbol-errors, link-flap, cnp-storm, ack-timeouts, rcv-errors, port-down, port-up, reset")
        String kind;

        @Override
        public Integer call() {
            return guard(() -> {
                if (arg != null && !io.rocectl.lab.Faults.WITH_ARG.contains(fault)) {
                    throw new InputError("argument ARG", 0, 0, "fault '" + fault + "' takes no argument (got '" + arg + "')");
                }
                if (kind != null && !fault.equals("counters")) {
                    throw new InputError("option --kind", 0, 0, "--kind belongs to the counters fault, not '" + fault + "'");
                }
                String a = arg;
                if (fault.equals("counters")) {
                    if (kind == null) throw new InputError("option --kind", 0, 0, "counters needs --kind: "
                            + String.join(", ", io.rocectl.lab.Faults.COUNTER_KINDS));
                    if (kind.contains(":")) throw new InputError("option --kind", 0, 0, "bad --kind '" + kind + "'");
                    a = arg == null ? kind : kind + ":" + arg;
                }
                Lab.breakHost(target.load(), fault, a, host, nic, System.out);
                return ExitCodes.OK;
            });
        }
    }
}
