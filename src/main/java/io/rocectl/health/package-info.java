/**
 * {@code rocectl health}: per RDMA device and port, the sysfs state and counters of one sample
 * (one round trip per host), deltas and rates against the previous sample, a verdict per port
 * (ok / degraded / down with a reason), rendered as text, JSON or Prometheus text. Pure except
 * {@link io.rocectl.health.HealthStore} (the previous sample on the control node).
 */
package io.rocectl.health;
