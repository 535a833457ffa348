/**
 * {@code rocectl audit}: every host read in one round trip (the NIC facts and the health sample in
 * one script, {@link io.rocectl.audit.HostAudit}), the fleet compared setting by setting within
 * each group against the majority or a manifest ({@link io.rocectl.audit.FleetAudit},
 * {@link io.rocectl.audit.AuditManifest}), rendered as text, JSON or Prometheus text
 * ({@link io.rocectl.audit.AuditReport}). Pure except {@link io.rocectl.audit.HostAudit#read}.
 */
package io.rocectl.audit;
