package io.rocectl.event;

import java.util.List;

/** Fans events out to several listeners. */
public final class Listeners implements RunListener {
    private final List<RunListener> all;

    public Listeners(List<RunListener> all) {
        this.all = List.copyOf(all);
    }

    @Override
    public void onPlayStart(String play, List<String> hosts) { all.forEach(l -> l.onPlayStart(play, hosts)); }

    @Override
    public void onTaskStart(String task, List<String> hosts) { all.forEach(l -> l.onTaskStart(task, hosts)); }

    @Override
    public void onHostResult(HostResult r) { all.forEach(l -> l.onHostResult(r)); }

    @Override
    public void onTaskEnd(String task, List<HostResult> results) { all.forEach(l -> l.onTaskEnd(task, results)); }

    @Override
    public void onWarning(String message) { all.forEach(l -> l.onWarning(message)); }

    @Override
    public void onRecap(Recap recap) { all.forEach(l -> l.onRecap(recap)); }
}
