package io.rocectl.health;

import io.rocectl.fact.Iface;
import io.rocectl.fact.IpJson;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.fact.RdmaPort;
import io.rocectl.fact.RtTables;
import io.rocectl.fact.SshConnectionVar;
import io.rocectl.nic.HostNics;
import io.rocectl.op.NicSelection;
import io.rocectl.op.RoceNic;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Which RDMA ports of a sample are judged: only those whose netdev is one of the host's RoCE NICs,
 * selected exactly as every other command selects them ({@link HostNics#selection}: {@code roce_nics},
 * {@code roce_subnet}, the management interface never unless {@code roce_force_mgmt}). The health
 * script's own {@code ssh} (SSH_CONNECTION) and {@code addr} ({@code ip -j addr}) lines feed it,
 * so the selection costs no round trip. A port left out is neither judged nor reported nor kept
 * in the history, and gets a note. A host whose addresses cannot be read (no iproute2) has every
 * port judged, with a note saying so.
 *
 * @param judged the port keys ({@code DEV/PORT}) to judge
 * @param notes  one line per port left out, and why
 */
public record HealthSelection(Set<String> judged, List<String> notes) {
    public HealthSelection {
        judged = Set.copyOf(judged);
        notes = List.copyOf(notes);
    }

    /** The selection of {@code s} from its raw script output; a bad selection setting is an IllegalArgumentException. */
    public static HealthSelection of(HealthSample s, String raw, Function<String, Object> setting, Map<String, Object> vars) {
        String ssh = "", addr = null;
        for (String line : raw.split("\n")) {
            if (line.startsWith("ssh ")) ssh = line.substring(4);
            else if (line.startsWith("addr ")) addr = line.substring(5);
        }
        Set<String> all = new LinkedHashSet<>();
        s.ports().forEach(p -> all.add(p.key()));
        List<Iface> ifaces;
        try {
            ifaces = addr == null || addr.isBlank() ? List.of() : IpJson.addr(addr);
        } catch (RuntimeException e) {
            ifaces = List.of();
        }
        if (ifaces.isEmpty()) {
            return new HealthSelection(all, s.ports().isEmpty() ? List.of()
                    : List.of(s.host() + ": no interface addresses read (iproute2 missing?): every RDMA port judged"));
        }
        List<RdmaPort> rdma = new ArrayList<>();
        for (HealthSample.Port p : s.ports()) {
            if (!p.netdev().isEmpty()) rdma.add(new RdmaPort(p.device(), p.port(), List.of(p.netdev()), p.state(), "", List.of()));
        }
        SshConnectionVar conn;
        try {
            conn = SshConnectionVar.parse(ssh);
        } catch (RuntimeException e) {
            conn = null;
        }
        NicSelection sel;
        try {
            sel = HostNics.selection(new NetSnapshot("", ifaces, List.of(), List.of(), new RtTables(), rdma, conn,
                    Optional.empty()), setting, vars);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("RoCE NIC selection: " + e.getMessage(), e);
        }
        Set<String> nics = new LinkedHashSet<>();
        for (RoceNic n : sel.nics()) nics.add(n.name());
        Set<String> judged = new LinkedHashSet<>();
        List<String> notes = new ArrayList<>();
        for (HealthSample.Port p : s.ports()) {
            if (nics.contains(p.netdev())) {
                judged.add(p.key());
                continue;
            }
            String left = sel.notes().stream().filter(n -> n.startsWith(p.netdev() + ": ")).findFirst().orElse(null);
            String why = p.netdev().isEmpty() ? "no net device"
                    : p.netdev().equals(sel.mgmtIf()) ? "the management interface (found by " + sel.mgmtHow() + ")"
                    : left != null ? left.substring(p.netdev().length() + 2)
                    : "outside the RoCE selection (" + sel.selector() + ")";
            notes.add(s.host() + ": " + p.key() + (p.netdev().isEmpty() ? "" : " (" + p.netdev() + ")") + " not judged: " + why);
        }
        return new HealthSelection(judged, notes);
    }
}
