package io.rocectl.builtin.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.nic.HostNics;
import io.rocectl.op.ArpPlan;
import io.rocectl.op.ArpPlanner;
import io.rocectl.op.RoceNic;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ShellResource;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code roce_arp}: the ARP half of the seeds' fix, see {@link ArpPlanner} for what and why.
 * Arguments (host variable fallback in parentheses): {@code rp_filter} ({@code roce_rp_filter}),
 * {@code arp_accept} ({@code roce_arp_accept}), {@code peer_nics} ({@code roce_peer_nics}: how
 * many RoCE NICs the cluster has; default: the sum of {@code hostvars[h].roce.nics} over
 * {@code play_hosts}, or play hosts x local NICs; 0 disables neighbour table sizing),
 * {@code sysctl_file} (default {@code /etc/sysctl.d/90-rocectl-roce.conf}),
 * {@code flush} (default true).
 */
public final class RoceArpModule implements Module {
    public static final String DEFAULT_FILE = Facts.ROCE_SYSCTL_FILE_PATH;

    @Override
    public String name() { return "roce_arp"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("rp_filter", ArgSpec.Type.INT).opt("arp_accept", ArgSpec.Type.INT)
                .opt("peer_nics", ArgSpec.Type.INT).opt("sysctl_file", ArgSpec.Type.STR).opt("flush", ArgSpec.Type.BOOL)
                .opt("roce_nics", ArgSpec.Type.ANY).opt("roce_subnet", ArgSpec.Type.STR);
    }

    static int peerNics(TaskContext ctx, int localNics) {
        Object v = RoceHost.setting(ctx, "peer_nics", "roce_peer_nics");
        if (v != null) return Values.toInt(v, 0, "peer_nics");
        Map<String, List<RoceNic>> peers = PlayPeers.of(ctx);
        int sum = peers.values().stream().mapToInt(List::size).sum();
        if (sum > 0) return sum;
        return Math.max(1, peers.size()) * localNics;
    }

    private static Integer optInt(TaskContext ctx, String arg, String var) {
        Object v = RoceHost.setting(ctx, arg, var);
        return v == null || v.toString().isBlank() ? null : Values.toInt(v, 0, arg);
    }

    /** The change: the file ($1, content $2, or nothing), the live values in $3, the flush of $4... (see the resource). */
    static final String APPLY = io.rocectl.module.RemoteFile.TEMP + "\n" + ShellResource.text(RoceArpModule.class, "arp-apply.sh");

    /**
     * {@code roce_nics: []} with {@code roce_confirm_remove: true}: the sysctl file goes; the live
     * values stay as they are (what they were before rocectl is not known), so the kernel's
     * defaults come back at the next boot.
     */
    private static ModuleResult remove(TaskContext ctx, String file, boolean present)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (!present) return ModuleResult.ok("no " + file + " to remove (roce_nics [] with " + RoceHost.CONFIRM_REMOVE + ")");
        String diff = "- file " + file;
        if (ctx.check()) return ModuleResult.changed("would remove " + file).withDiff(diff);
        RemoteFile.replaceAll(ctx, List.of(RemoteFile.Change.remove(file)));
        return ModuleResult.changed("removed " + file + "; the live ARP values stay until the next boot").withDiff(diff);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String file = ctx.str("sysctl_file", DEFAULT_FILE);
        boolean usual = DEFAULT_FILE.equals(file);   // the usual file comes with every snapshot (RoceHost.SHARED)
        RoceHost h = usual ? RoceHost.gather(ctx, List.of(Facts.SYSCTL_NET, Facts.ROCE_SYSCTL_FILE))
                : RoceHost.gather(ctx, List.of(Facts.SYSCTL_NET, Facts.FILE_ARG1), file);
        List<String> nics = h.sel().nics().stream().map(RoceNic::name).toList();
        java.util.Optional<String> had = h.get(usual ? Facts.ROCE_SYSCTL_FILE : Facts.FILE_ARG1);
        if (nics.isEmpty() && RoceHost.removalConfirmed(ctx)) return remove(ctx, file, had.isPresent());
        if (nics.isEmpty()) return ModuleResult.ok("no RoCE NICs selected" + RoceRoutingModule.notes(h.sel().notes()));
        String current = had.orElse("");
        ArpPlan p = ArpPlanner.plan(new ArpPlanner.Input(nics, h.get(Facts.SYSCTL_NET), current,
                optInt(ctx, "rp_filter", "roce_rp_filter"), optInt(ctx, "arp_accept", "roce_arp_accept"),
                peerNics(ctx, nics.size())));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("live", p.live());
        data.put("notes", p.notes());
        String diff = String.join("\n", p.diff());
        if (p.empty()) return ModuleResult.ok("ARP sysctls already right on " + String.join(",", nics)).withData(data);
        boolean flush = ctx.bool("flush", true) && !p.flush().isEmpty();
        data.put("flushed", flush ? p.flush() : List.of());
        if (ctx.check()) return ModuleResult.changed("would set " + p.live().size() + " live value(s)"
                + (p.fileChange() ? " and write " + file : "")).withData(data).withDiff(diff);
        StringBuilder live = new StringBuilder(); // "PATH VALUE" lines, the change's $3
        p.live().forEach((k, v) -> live.append(k).append(' ').append(v).append('\n'));
        List<String> flushed = flush ? p.flush() : List.of();
        if ("root".equals(ctx.connection().user())) {
            // the file, the live values, the flush and the read after them in one command
            List<String> args = new ArrayList<>(List.of(p.fileChange() ? file : "", p.fileChange() ? p.fileContent() : "",
                    live.toString()));
            args.addAll(flushed);
            HostNics.After a = HostNics.readAfter(ctx.connection(), ctx.commandTimeout(), n -> RoceHost.setting(ctx, n),
                    ctx.vars(), new HostNics.Before(APPLY, args, null));
            if (!a.before().ok()) {
                throw new ModuleException("command failed (rc=" + a.before().exitCode() + "): sh: " + a.before().stderr().strip());
            }
        } else {
            if (p.fileChange()) RemoteFile.writeAtomic(ctx, file, p.fileContent(), "0644");
            List<String> args = new ArrayList<>(List.of("", "", live.toString()));
            args.addAll(flushed);
            if (!p.live().isEmpty()) ctx.runOk(Cmd.script(APPLY, args));
        }
        return ModuleResult.changed("set " + p.live().size() + " live value(s)" + (p.fileChange() ? ", wrote " + file : "")
                + (flush ? ", flushed neighbours of " + String.join(",", p.flush()) : "")).withData(data).withDiff(diff);
    }
}
