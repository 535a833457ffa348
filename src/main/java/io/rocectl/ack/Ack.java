package io.rocectl.ack;

import java.time.Instant;

/**
 * One acknowledgement: the fault {@code cause} on {@code host:nic} (or on any NIC of the host and on
 * the host itself when {@code nic} is null) of cluster {@code cluster} is known, for {@code reason},
 * until {@code expires} (null: until removed). {@code line} is where it is in the file (0 when new).
 */
public record Ack(String cluster, String host, String nic, String cause, String reason, Instant added, Instant expires,
                  int line) {

    /** {@code HOST:NIC}, or {@code HOST} for the whole host. */
    public String target() {
        return nic == null ? host : host + ":" + nic;
    }

    /** Whether it has expired at {@code now}. */
    public boolean expiredAt(Instant now) {
        return expires != null && !now.isBefore(expires);
    }

    /** Whether it is about {@code host} and {@code nic} (a host-wide one covers every NIC; nic null: the host itself). */
    public boolean covers(String host, String nic) {
        return this.host.equals(host) && (this.nic == null || this.nic.equals(nic));
    }
}
