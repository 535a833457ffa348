package io.rocectl.builtin.roce;

import io.rocectl.fact.Gid;
import io.rocectl.fact.RdmaPort;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.op.RoceNic;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code roce_facts}: gathers the host's RoCE NICs in one round trip and returns them as the
 * fact {@code roce}:
 * <pre>
 * roce:
 *   hostname: gpu01
 *   mgmt_if: eno1            # never selected (unless roce_force_mgmt: true); "" if unknown
 *   mgmt_ip: 10.10.1.11
 *   mgmt_found_by: SSH_CONNECTION | ansible_host | roce_mgmt_if | ""
 *   nics:                    # sorted naturally by name; rail = index
 *     - {name, ip, prefix, subnet, mac, mtu, operstate, carrier, rdma_dev, rdma_port, gid_index, rail}
 *   rdma_devs: [mlx5_0, ...] # RDMA devices of the selected NICs ("" entries left out)
 *   gid_index: 3             # the RoCE v2 IPv4 GID index when all NICs agree, else -1
 *   rdma:                    # every RDMA port seen in sysfs (empty without RDMA hardware)
 *     - {dev, port, netdevs, state, link_layer, gids: [{index, gid, type, ndev}]}
 *   notes: [...]             # interfaces left out and why
 * </pre>
 * Selection: {@code roce_nics}, {@code roce_subnet}, {@code roce_force_mgmt}, {@code roce_mgmt_if}
 * (arguments or host variables), see {@link io.rocectl.op.NicSelector}.
 */
public final class RoceFactsModule implements Module {
    @Override
    public String name() { return "roce_facts"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("roce_nics", ArgSpec.Type.ANY).opt("roce_subnet", ArgSpec.Type.STR)
                .opt("roce_force_mgmt", ArgSpec.Type.BOOL).opt("roce_mgmt_if", ArgSpec.Type.STR);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        RoceHost h = RoceHost.gather(ctx);
        Map<String, Object> roce = facts(h);
        String msg = h.sel().nics().size() + " RoCE NIC(s)" + (h.sel().mgmtIf().isEmpty() ? ", management NIC unknown"
                : ", management NIC " + h.sel().mgmtIf()) + RoceRoutingModule.notes(h.sel().notes());
        return ModuleResult.ok(msg).withFacts(Map.of("roce", roce)).withData(Map.of("ansible_facts", Map.of("roce", roce)));
    }

    /** The {@code roce} fact for a gathered host. */
    public static Map<String, Object> facts(RoceHost h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hostname", h.snap().hostname());
        m.put("mgmt_if", h.sel().mgmtIf());
        m.put("mgmt_ip", h.sel().mgmtIp());
        m.put("mgmt_found_by", h.sel().mgmtHow());
        List<Map<String, Object>> nics = new ArrayList<>();
        Set<String> devs = new LinkedHashSet<>();
        Set<Integer> gids = new LinkedHashSet<>();
        for (RoceNic n : h.sel().nics()) {
            nics.add(n.toMap());
            if (!n.rdmaDev().isEmpty()) devs.add(n.rdmaDev());
            gids.add(n.gidIndex());
        }
        m.put("nics", nics);
        m.put("rdma_devs", new ArrayList<>(devs));
        m.put("gid_index", gids.size() == 1 ? gids.iterator().next() : -1);
        List<Map<String, Object>> rdma = new ArrayList<>();
        for (RdmaPort p : h.snap().rdma()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("dev", p.dev());
            pm.put("port", p.port());
            pm.put("netdevs", p.netdevs());
            pm.put("state", p.state());
            pm.put("link_layer", p.linkLayer());
            List<Map<String, Object>> gl = new ArrayList<>();
            for (Gid g : p.gids()) {
                gl.add(Map.of("index", g.index(), "gid", g.gid(), "type", g.type(), "ndev", g.ndev()));
            }
            pm.put("gids", gl);
            rdma.add(pm);
        }
        m.put("rdma", rdma);
        m.put("notes", h.sel().notes());
        return m;
    }

    /** The RoCE NICs of another host, read back from its {@code roce} fact (empty when missing). */
    @SuppressWarnings("unchecked")
    public static List<RoceNic> nicsOf(Object roceFact) {
        List<RoceNic> out = new ArrayList<>();
        if (roceFact instanceof Map<?, ?> m && m.get("nics") instanceof List<?> l) {
            for (Object o : l) if (o instanceof Map<?, ?> nm) out.add(RoceNic.fromMap(nm));
        }
        return out;
    }
}
