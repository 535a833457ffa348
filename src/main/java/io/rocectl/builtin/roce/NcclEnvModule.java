package io.rocectl.builtin.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.Would;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.nic.HostNics;
import io.rocectl.op.NcclConf;

import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.List;
import java.util.Map;

/**
 * {@code nccl_env}: writes {@code /etc/nccl.conf} (argument {@code path}) from the RoCE facts:
 * {@code NCCL_IB_HCA} (the RDMA devices:ports of the RoCE NICs, exact-match form
 * {@code =mlx5_0:1,...}), {@code NCCL_IB_GID_INDEX} (the
 * RoCE v2 IPv4 GID index, when all NICs agree), {@code NCCL_SOCKET_IFNAME} (argument
 * {@code socket_ifname} / variable {@code roce_nccl_socket_ifname}; default the management
 * interface), {@code NCCL_IB_TC} (argument {@code ib_tc} / variable {@code roce_nccl_ib_tc};
 * written only when set, since it must match the switches' QoS class; an existing line is kept
 * when unset). Other lines of the file are kept. Skipped (ok, with a message) when no RoCE NIC
 * has an RDMA device. With {@code roce_nics: []} and {@code roce_confirm_remove: true}, rocectl's
 * keys leave the file ({@code NCCL_IB_TC} too when it is set for the task), and a file that then
 * holds only rocectl's header goes.
 */
public final class NcclEnvModule implements Module {
    @Override
    public String name() { return "nccl_env"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("path", ArgSpec.Type.STR).opt("socket_ifname", ArgSpec.Type.STR)
                .opt("ib_tc", ArgSpec.Type.INT).opt("roce_nics", ArgSpec.Type.ANY).opt("roce_subnet", ArgSpec.Type.STR);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String path = ctx.str("path", "/etc/nccl.conf");
        RoceHost h = RoceHost.gather(ctx);
        if (h.sel().nics().isEmpty() && RoceHost.removalConfirmed(ctx)) return remove(ctx, path, h);
        Object sock = RoceHost.setting(ctx, "socket_ifname", "roce_nccl_socket_ifname");
        Map<String, String> s = NcclConf.settings(h.sel().nics(), sock == null ? h.sel().mgmtIf() : sock.toString(), taskIbTc(ctx));
        if (s.isEmpty()) {
            return ModuleResult.ok("skipped: no RDMA device behind the " + h.sel().nics().size()
                    + " selected NIC(s), " + path + " not written").withData(Map.of("skipped", true));
        }
        String cur = read(ctx, path, h).orElse("");
        String next = NcclConf.apply(cur, s);
        if (next.equals(cur)) {
            HostNics.keep(ctx.connection()); // only read a file: the network snapshot still holds
            return ModuleResult.ok(path + " already right").withData(Map.of("settings", s));
        }
        if (!ctx.check()) write(ctx, path, next);
        return ModuleResult.changed((ctx.check() ? "would write " : "wrote ") + path).withData(Map.of("settings", s)).withDiff(diff(path, cur, next));
    }

    /** The file's content; the usual path rides along with the snapshot where the login user is root. */
    private static java.util.Optional<String> read(TaskContext ctx, String path, RoceHost h)
            throws TransportException, CommandTimeoutException, InterruptedException {
        boolean usual = Facts.NCCL_CONF_PATH.equals(path) && h.sections().containsKey(Facts.NCCL_CONF.name());
        return usual ? h.get(Facts.NCCL_CONF) : RemoteFile.read(ctx, path);
    }

    /** Writes the file (null: removes it); the rest of the network snapshot still holds. */
    private static void write(TaskContext ctx, String path, String content)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (content == null) RemoteFile.replaceAll(ctx, List.of(RemoteFile.Change.remove(path)));
        else RemoteFile.writeAtomic(ctx, path, content, "0644");
        if (Facts.NCCL_CONF_PATH.equals(path)) HostNics.keep(ctx.connection(), List.of(Facts.NCCL_CONF));
    }

    /** The old lines marked {@code -}, the new ones {@code +} (a new file has no {@code -} line; a removed one no {@code +}). */
    private static String diff(String path, String cur, String next) {
        return "--- " + path + "\n" + marked(cur, '-') + "+++ " + path + "\n" + marked(next, '+');
    }

    private static String marked(String text, char mark) {
        if (text == null || text.isEmpty()) return "";
        StringBuilder sb = new StringBuilder();
        String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        for (String l : body.split("\n", -1)) sb.append(mark).append(l).append('\n');
        return sb.toString();
    }

    /** {@code roce_nics: []} with {@code roce_confirm_remove: true}: rocectl's keys go (see the class). */
    private static ModuleResult remove(TaskContext ctx, String path, RoceHost h)
            throws TransportException, CommandTimeoutException, InterruptedException {
        List<String> keys = new java.util.ArrayList<>(NcclConf.KEYS);
        if (taskIbTc(ctx) != null) keys.add("NCCL_IB_TC");
        String cur = read(ctx, path, h).orElse(null);
        String next = cur == null ? null : NcclConf.remove(cur, keys);
        if (cur == null || cur.equals(next)) {
            HostNics.keep(ctx.connection());
            return ModuleResult.ok(cur == null ? "no " + path + " to remove rocectl's keys from"
                    : path + " holds none of rocectl's keys").withData(Map.of("removed", List.of()));
        }
        String diff = diff(path, cur, next);
        String what = next == null ? "removed " + path + " (it held only rocectl's keys)" : "removed rocectl's keys from " + path;
        if (ctx.check()) return ModuleResult.changed(Would.say(what)).withDiff(diff);
        write(ctx, path, next);
        return ModuleResult.changed(what).withData(Map.of("removed", keys)).withDiff(diff);
    }

    /** The task's traffic class (argument ib_tc, else roce_nccl_ib_tc), or null. */
    private static Integer taskIbTc(TaskContext ctx) {
        return ibTc(RoceHost.setting(ctx, "ib_tc", "roce_nccl_ib_tc"));
    }

    /** The traffic class when the user set one (blank counts as unset), else null. */
    static Integer ibTc(Object v) {
        if (v == null || v.toString().isBlank()) return null;
        return io.rocectl.module.Values.toInt(v, 0, "roce_nccl_ib_tc");
    }
}
