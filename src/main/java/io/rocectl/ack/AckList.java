package io.rocectl.ack;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The acknowledgements of one cluster at one instant, and what they say about a fault. */
public final class AckList {
    /** What the list says about one fault. */
    public enum State {
        /** An acknowledgement for this cause on this target is in force: the fault does not fail the run. */
        ACKNOWLEDGED("acknowledged"),
        /** There was one, but it has expired: the fault fails the run again. */
        EXPIRED("ack-expired"),
        /** The target is acknowledged for another cause only: the fault changed, and fails the run. */
        CHANGED("ack-other-cause"),
        /** Nothing about it. */
        NONE("none");

        private final String id;

        State(String id) {
            this.id = id;
        }

        /** The id in JSON, metrics and history. */
        public String id() {
            return id;
        }
    }

    /** The state of a fault, and the acknowledgement that decided it (null for NONE). */
    public record Match(State state, Ack ack) {}

    private final List<Ack> acks;
    private final Instant now;

    /** The entries of {@code all} for {@code cluster}, judged at {@code now}. */
    public AckList(List<Ack> all, String cluster, Instant now) {
        List<Ack> l = new ArrayList<>();
        for (Ack a : all) if (a.cluster().equals(cluster)) l.add(a);
        this.acks = List.copyOf(l);
        this.now = now;
    }

    public boolean isEmpty() {
        return acks.isEmpty();
    }

    public List<Ack> acks() {
        return acks;
    }

    /**
     * The state of fault {@code cause} on {@code host:nic} ({@code nic} null for a fault of the host
     * itself): ACKNOWLEDGED when an unexpired entry covers the target for that cause, else EXPIRED
     * when an expired one does, else CHANGED when an entry covers the target for another cause.
     */
    public Match match(String host, String nic, String cause) {
        Ack expired = null;
        Ack other = null;
        for (Ack a : acks) {
            if (!a.covers(host, nic)) continue;
            if (!a.cause().equals(cause)) {
                if (other == null) other = a;
            } else if (a.expiredAt(now)) {
                if (expired == null) expired = a;
            } else {
                return new Match(State.ACKNOWLEDGED, a);
            }
        }
        if (expired != null) return new Match(State.EXPIRED, expired);
        if (other != null) return new Match(State.CHANGED, other);
        return new Match(State.NONE, null);
    }

    /** Whether the fault is acknowledged and in force. */
    public boolean acknowledged(String host, String nic, String cause) {
        return match(host, nic, cause).state() == State.ACKNOWLEDGED;
    }
}
