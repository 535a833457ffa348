/**
 * Probing over SSH and the remediation loop: gather NIC endpoints from every host (over a
 * {@code Connection}, with the RoCE modules' NIC selection from {@code nic}), run the batched
 * cheap probe (one command per source host), diagnose layer by layer ({@link io.rocectl.remediate.ProbeRunner},
 * a {@link io.rocectl.remediate.Prober}); the one loop ({@link io.rocectl.remediate.Remediator})
 * re-runs the fix on implicated hosts through the one {@link io.rocectl.remediate.Fixer} contract
 * and re-probes the failed pairs; plus the run lock for cron.
 */
package io.rocectl.remediate;
