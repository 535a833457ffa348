/**
 * NIC-pair probing: the pair graph over NIC endpoints ({@link io.rocectl.probe.ProbeGraph}), round
 * schedules for heavy probes ({@link io.rocectl.probe.RoundSchedule}), the batched cheap probe
 * script and its parser ({@link io.rocectl.probe.CheapProbeScript},
 * {@link io.rocectl.probe.CheapProbeParser}), heavy probe command lines and output parsers
 * ({@link io.rocectl.probe.HeavyProbe}), layered diagnosis and fault localisation
 * ({@link io.rocectl.probe.Diagnoser}). The error catalogue that reads NCCL/verbs log lines is its own
 * package, {@code io.rocectl.explain}.
 *
 * <p>Everything here is pure (facts in, records out); nothing runs a command. This is the only
 * package that imports jgrapht. Pair sets are implicit (computed from groups of endpoints) so the
 * 67 M directed pairs of {@code all} on 1,024 x 8 NICs are streamed, never held.
 */
package io.rocectl.probe;
