package io.rocectl.lab;

import java.util.Map;

/**
 * The Slurm cluster of a lab ({@code lab up --slurm}), as recorded in its state file so that
 * {@code lab down} stops every daemon by PID.
 *
 * @param controller  the controller's address (the management bridge) and port, {@code ADDR:PORT}
 * @param mungePid    the lab's own munged, 0 while not started
 * @param slurmctldPid the lab's slurmctld, 0 while not started
 * @param slurmdPids  host name -> its slurmd (running in the host's network namespace)
 */
public record LabSlurm(String controller, long mungePid, long slurmctldPid, Map<String, Long> slurmdPids) {
    public LabSlurm {
        slurmdPids = Map.copyOf(slurmdPids);
    }

    LabSlurm withMunge(long pid) { return new LabSlurm(controller, pid, slurmctldPid, slurmdPids); }
    LabSlurm withCtld(long pid) { return new LabSlurm(controller, mungePid, pid, slurmdPids); }
    LabSlurm withSlurmds(Map<String, Long> pids) { return new LabSlurm(controller, mungePid, slurmctldPid, pids); }
}
