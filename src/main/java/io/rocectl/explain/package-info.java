/**
 * The error catalogue: what an NCCL, verbs or rdma_cm log line means, at which layer, and what to
 * run next ({@link io.rocectl.explain.Explain}, read over a whole log by
 * {@link io.rocectl.explain.LogExplainer}); the addresses and GIDs a line names
 * ({@link io.rocectl.explain.LogAddresses}), and the hint that points to {@code rocectl health} where
 * the path layers cannot see a fault ({@link io.rocectl.explain.HealthHint}). Pure: text in, records out.
 */
package io.rocectl.explain;
