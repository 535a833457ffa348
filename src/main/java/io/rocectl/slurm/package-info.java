/**
 * Taking nodes out of Slurm service when rocectl has evidence that configuration cannot fix their
 * fabric, and bringing back the ones it took out once they are healthy: the evidence per host
 * ({@link io.rocectl.slurm.HostEvidence}), the pure rules ({@link io.rocectl.slurm.DrainRules}),
 * the node states read from Slurm ({@link io.rocectl.slurm.SlurmNode}) and the commands that change
 * them ({@link io.rocectl.slurm.Scontrol}). See docs/slurm.md.
 */
package io.rocectl.slurm;
