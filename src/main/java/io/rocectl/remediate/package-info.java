/**
 * Probing over SSH and the remediation loop: gather NIC endpoints from every host, run the
 * batched cheap probe (one command per source host), diagnose layer by layer, re-run the fix
 * on implicated hosts, re-probe the failed pairs; plus the run lock for cron.
 */
package io.rocectl.remediate;
