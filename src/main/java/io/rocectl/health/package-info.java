/**
 * {@code rocectl health}: per RDMA device and port, the sysfs state and counters of one sample
 * (one round trip per host), deltas and rates against the previous sample, a verdict per port
 * (ok / degraded / down with a reason), rendered as text, JSON or Prometheus text. Only the RoCE
 * NICs' ports are judged ({@link io.rocectl.health.HealthSelection}); a short history per port
 * ({@link io.rocectl.health.HealthHistory}) adds verdicts over time windows
 * ({@link io.rocectl.health.HealthWindow}: flaps, error counters per hour, CNP and pause rates).
 * Pure except {@link io.rocectl.health.HealthStore} (the previous sample and the history on the
 * control node).
 */
package io.rocectl.health;
