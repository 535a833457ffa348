/**
 * The engine: resolves every play's hosts up front, runs tasks in lockstep (linear) or per host (free) with at most {@code forks} hosts in flight, serial batches, blocks, handlers, loops, retries; one SSH connection per host in a {@link io.rocectl.exec.ConnectionPool}. Emits events, never prints.
 */
package io.rocectl.exec;
