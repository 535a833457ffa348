package io.rocectl.exec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which hosts are out of the run: failed (for the rest of the playbook, as in Ansible) or
 * unreachable. Shared by every fork thread; every access goes through this object's lock.
 */
final class RunState {
    private final Set<String> failed = new LinkedHashSet<>();
    private final Set<String> unreachable = new LinkedHashSet<>();

    synchronized void fail(String host) {
        failed.add(host);
    }

    synchronized void unreachable(String host) {
        unreachable.add(host);
    }

    synchronized boolean active(String host) {
        return !failed.contains(host) && !unreachable.contains(host);
    }

    synchronized boolean isUnreachable(String host) {
        return unreachable.contains(host);
    }

    /** The given hosts still in the run, in the given order. */
    synchronized List<String> active(Collection<String> hosts) {
        List<String> out = new ArrayList<>();
        for (String h : hosts) if (!failed.contains(h) && !unreachable.contains(h)) out.add(h);
        return out;
    }

    /** Failed hosts that are not also unreachable, in the order they failed. */
    synchronized List<String> failedHosts() {
        List<String> out = new ArrayList<>(failed);
        out.removeAll(unreachable);
        return out;
    }

    synchronized List<String> unreachableHosts() {
        return new ArrayList<>(unreachable);
    }
}
