package io.rocectl.exec;

import io.rocectl.error.InputError;
import io.rocectl.event.HostStats;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.fs.OwnFiles;
import io.rocectl.module.ControllerModule;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Mark;
import io.rocectl.playbook.Play;
import io.rocectl.playbook.Playbook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs a playbook over an inventory: resolves every play's hosts first, then the plays in order
 * (each a {@link PlayRun}: serial batches, a {@link Strategy} over a {@link PlayIterator}), at most
 * {@code forks} hosts in flight, and writes the recap and retry file. Emits events; never prints.
 */
public final class PlaybookRunner {
    private final HostInventory inventory;
    private final ModuleRegistry modules;
    private final RunOptions opts;
    private final RunListener listener;
    private final Cancel cancel;
    private final Map<String, HostRunState> hosts = new LinkedHashMap<>();
    private String playbookDir = ".";

    public PlaybookRunner(HostInventory inventory, ModuleRegistry modules, RunOptions opts, RunListener listener,
                          Cancel cancel) {
        this.inventory = inventory;
        this.modules = modules;
        this.opts = opts;
        this.listener = listener;
        this.cancel = cancel;
    }

    /** Resolves every play's hosts up front, so a bad pattern fails before any host is contacted. */
    public Map<Play, List<String>> plan(Playbook pb) {
        Map<Play, List<String>> out = new LinkedHashMap<>();
        List<String> limit = opts.limit() == null ? null : inventory.resolve(opts.limit());
        for (Play p : pb.plays()) {
            refuseRoutedControllerTasks(p.tasks());
            List<String> hs;
            try {
                hs = new ArrayList<>(inventory.resolve(hostsOf(p)));
            } catch (InputError | io.rocectl.template.TemplateException e) {
                Mark m = p.mark();
                throw new InputError(m.file(), m.line(), m.column(), "hosts '" + p.hosts() + "': " + e.getMessage());
            }
            if (limit != null) hs.retainAll(new HashSet<>(limit));
            out.put(p, hs);
        }
        return out;
    }

    /**
     * A controller module (it runs once for the play, from here, over its own connections) cannot
     * be delegated: refused before any host is contacted rather than ignored.
     */
    private void refuseRoutedControllerTasks(List<io.rocectl.playbook.Step> steps) {
        for (io.rocectl.playbook.Step st : steps) {
            if (st instanceof io.rocectl.playbook.Block b) {
                refuseRoutedControllerTasks(b.block());
                refuseRoutedControllerTasks(b.rescue());
                refuseRoutedControllerTasks(b.always());
            } else if (st instanceof io.rocectl.playbook.Task t && modules.find(t.module()) instanceof ControllerModule
                    && t.options().delegates()) {
                Mark m = t.mark();
                throw new InputError(m.file(), m.line(), m.column(), "module '" + t.module() + "' runs on the controller"
                        + " for the whole play: 'delegate_to' and 'local_action' do not apply to it");
            }
        }
    }

    /** The play's host pattern; a template renders with the play's vars and -e (as Ansible, no host vars). */
    private String hostsOf(Play p) {
        if (!io.rocectl.template.Templar.isTemplate(p.hosts())) return p.hosts();
        io.rocectl.template.Templar t = io.rocectl.template.Templar.get();
        Map<String, Object> v = new LinkedHashMap<>();
        p.vars().forEach((k, x) -> v.put(k, t.deferred(x, v)));
        opts.extraVars().forEach((k, x) -> v.put(k, t.deferred(x, v)));
        Object r = t.render(p.hosts(), v);
        if (r instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object o : l) parts.add(String.valueOf(o));
            return String.join(",", parts);
        }
        return String.valueOf(r);
    }

    public Recap run(Playbook pb, ConnectionPool pool) throws InterruptedException {
        long t0 = System.nanoTime();
        Path parent = pb.file().toAbsolutePath().getParent();
        playbookDir = parent == null ? "." : parent.toString();
        Map<Play, List<String>> plan = plan(pb); // bad host patterns fail here, before any connection
        for (List<String> hs : plan.values()) {
            for (String h : hs) hosts.computeIfAbsent(h, n -> new HostRunState(n, inventory.varsFor(n)));
        }
        RunState state = new RunState();
        ExecutorService forks = Executors.newFixedThreadPool(Math.min(opts.forks(), Math.max(1, hosts.size())), r -> {
            Thread t = new Thread(r, "fork");
            t.setDaemon(true);
            return t;
        });
        Map<String, HostRunState> everyHost = new LinkedHashMap<>(hosts);
        try {
            for (String h : inventory.resolve("all")) everyHost.computeIfAbsent(h, n -> new HostRunState(n, inventory.varsFor(n)));
        } catch (InputError empty) {
            // an inventory without hosts: hostvars holds the plays' hosts
        }
        RunContext ctx = new RunContext(inventory, modules, opts, listener, cancel, hosts,
                new HostVarsView(java.util.Collections.unmodifiableMap(everyHost)), playbookDir, pool,
                new TaskExecutor(modules, pool, opts, this::delegateVars, everyHost::get), forks, state);
        try {
            for (Map.Entry<Play, List<String>> e : plan.entrySet()) {
                if (cancel.requested()) break;
                // a failure limit, any_errors_fatal or a batch where every host failed ends the playbook
                if (new PlayRun(ctx, e.getKey(), e.getValue()).run()) break;
            }
        } finally {
            forks.shutdownNow();
        }
        Map<String, HostStats> stats = new LinkedHashMap<>();
        for (HostRunState h : hosts.values()) stats.put(h.name, h.stats());
        List<String> failedList = state.failedHosts();
        List<String> unreachable = state.unreachableHosts();
        Path retry = writeRetry(pb, failedList, unreachable);
        Recap recap = new Recap(stats, failedList, unreachable, retry, (System.nanoTime() - t0) / 1_000_000,
                cancel.requested());
        listener.onRecap(recap);
        return recap;
    }

    /** A delegate's inventory variables; a name outside the inventory has none (as Ansible's new Host). */
    private Map<String, Object> delegateVars(String host) {
        try {
            return inventory.varsFor(host);
        } catch (InputError notInInventory) {
            return Map.of();
        }
    }

    private Path writeRetry(Playbook pb, List<String> failed, List<String> unreachable) {
        if (opts.retryDir() == null || (failed.isEmpty() && unreachable.isEmpty())) return null;
        Set<String> all = new LinkedHashSet<>(failed);
        all.addAll(unreachable);
        Path f = opts.retryDir().resolve(retryName(pb.file()));
        try {
            // the retry directory and its files are private (0700/0600) whatever the umask
            OwnFiles.createDirs(opts.retryDir());
            Files.setPosixFilePermissions(opts.retryDir(), OwnFiles.DIR);
            OwnFiles.replace(f, String.join("\n", all) + "\n", OwnFiles.PRIVATE);
            return f;
        } catch (IOException e) {
            listener.onWarning("cannot write retry file " + f + ": " + e.getMessage());
            return null;
        }
    }

    /**
     * A playbook's retry file name: its base name and a short hash of its real path
     * ({@code site-1f2e3d4c.retry}), so two {@code site.yml} in different directories never share one.
     */
    public static String retryName(Path playbook) {
        Path real;
        try {
            real = playbook.toRealPath();
        } catch (IOException e) {
            real = playbook.toAbsolutePath().normalize();
        }
        String base = real.getFileName().toString().replaceAll("\\.ya?ml$", "");
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(real.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return base + "-" + java.util.HexFormat.of().formatHex(h, 0, 4) + ".retry";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
