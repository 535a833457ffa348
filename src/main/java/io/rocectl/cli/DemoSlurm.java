package io.rocectl.cli;

import io.rocectl.lab.Faults;
import io.rocectl.lab.LabState;
import io.rocectl.slurm.Scontrol;
import io.rocectl.slurm.SlurmNode;
import io.rocectl.transport.LocalConnection;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

/**
 * The {@code demo --slurm} steps, on a fixed lab with a real Slurm: a dead NIC found through one
 * srun step ({@code probe --via slurm}), its node drained by {@code remediate --drain slurm} with a
 * rocectl reason naming the NIC, the link restored, and the node resumed by the next run. Every
 * step is the real CLI, as an operator would type it.
 */
public final class DemoSlurm {
    private DemoSlurm() {}

    /**
     * Runs the steps, numbered from {@code step}, printing to {@code out}; the lab ends with the
     * link up. True when exactly the broken host's node was drained with the expected reason and
     * then resumed, and no other node was touched.
     */
    public static boolean show(LabState lab, int step, PrintStream out) throws InterruptedException {
        String host = lab.hosts().get(Math.min(1, lab.hosts().size() - 1)).name();
        String nic = lab.hosts().get(0).nics().get(0).name();
        String inv = lab.inventory().toString();
        try (LocalConnection local = new LocalConnection("localhost")) {
            return show(lab, host, nic, inv, new Scontrol(local, lab.slurmConf().toString(), Duration.ofSeconds(30)), step, out);
        }
    }

    private static boolean show(LabState lab, String host, String nic, String inv, Scontrol slurm, int step, PrintStream out)
            throws InterruptedException {
        out.println();
        out.println("== " + step + ". Slurm: SLURM_CONF=" + lab.slurmConf() + " sinfo -N");
        Map<String, SlurmNode> nodes = nodes(slurm, out);
        out.println("== " + (step + 1) + ". a dead NIC: rocectl lab break link-down --name " + lab.name() + " --host " + host
                + " --nic " + nic);
        Faults.inject(lab, "link-down", null, host, nic, out);
        boolean ok;
        try {
            out.println();
            out.println("== " + (step + 2) + ". found through one srun step, no SSH: rocectl probe -i " + inv + " --via slurm");
            int probed = Main.execute("probe", "-i", inv, "--via", "slurm");
            ok = probed == ExitCodes.FAILED;
            out.println();
            out.println("== " + (step + 3) + ". drained: rocectl remediate -i " + inv + " --drain slurm");
            Main.execute("remediate", "-i", inv, "--drain", "slurm", "--syslog", "off", "--history", "none", "--quiet");
            nodes = await(slurm, host, true, out);
            SlurmNode n = nodes.get(host);
            ok &= n != null && n.drained() && n.reason().equals("rocectl: link-down " + nic) && othersUntouched(nodes, host);
            out.println(ok ? "drained: " + host + " (" + n.reason() + "), and no other node"
                    : "NOT as expected: wanted only " + host + " drained with 'rocectl: link-down " + nic + "'");
        } finally {
            out.println();
            out.println("== " + (step + 4) + ". repaired: rocectl lab break link-up --name " + lab.name() + " --host " + host
                    + " --nic " + nic);
            Faults.inject(lab, "link-up", null, host, nic, out);
        }
        out.println("== " + (step + 5) + ". resumed: rocectl remediate -i " + inv + " --drain slurm");
        Main.execute("remediate", "-i", inv, "--drain", "slurm", "--syslog", "off", "--history", "none", "--quiet");
        nodes = await(slurm, host, false, out);
        SlurmNode back = nodes.get(host);
        boolean resumed = back != null && !back.drained() && back.reason().isEmpty() && othersUntouched(nodes, host);
        out.println(resumed ? "resumed: " + host + ", every node in service" : "NOT as expected: " + host + " still " + back);
        return ok && resumed;
    }

    private static boolean othersUntouched(Map<String, SlurmNode> nodes, String host) {
        return nodes.values().stream().noneMatch(x -> !x.name().equals(host) && x.drained());
    }

    /** Slurm's nodes, printed; empty when Slurm cannot be read (said so). */
    private static Map<String, SlurmNode> nodes(Scontrol slurm, PrintStream out) throws InterruptedException {
        try {
            Map<String, SlurmNode> m = slurm.nodes();
            for (SlurmNode n : m.values()) out.printf("  %-8s %-10s %s%n", n.name(), n.state(), n.reason());
            return m;
        } catch (Scontrol.SlurmException e) {
            out.println("  cannot read Slurm: " + e.getMessage());
            return Map.of();
        }
    }

    /** Waits up to 30 s until Slurm shows {@code host} drained (or not); prints and returns the nodes then. */
    private static Map<String, SlurmNode> await(Scontrol slurm, String host, boolean drained, PrintStream out)
            throws InterruptedException {
        long end = System.nanoTime() + 30_000_000_000L;
        PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
        while (System.nanoTime() < end) {
            SlurmNode n = nodes(slurm, quiet).get(host);
            if (n != null && n.drained() == drained) break;
            Thread.sleep(200);
        }
        out.println("SLURM_CONF=... sinfo -N:");
        return nodes(slurm, out);
    }
}
