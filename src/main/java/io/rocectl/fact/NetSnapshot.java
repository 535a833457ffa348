package io.rocectl.fact;

import io.rocectl.transport.Cmd;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A host's network state as one round trip sees it: interfaces, rules, routes (all tables),
 * table names, RDMA ports and the SSH session.
 *
 * @param rocectlTables content of rocectl's rt_tables.d file, empty when absent
 * @param ssh           the SSH session, or null when not over SSH
 */
public record NetSnapshot(String hostname, List<Iface> ifaces, List<Rule> rules, List<KernelRoute> routes,
                          RtTables tables, List<RdmaPort> rdma, SshConnectionVar ssh, Optional<String> rocectlTables) {

    public static final List<Fact<?>> FACTS = List.of(Facts.HOSTNAME, Facts.ADDR, Facts.RT_TABLES, Facts.RULES,
            Facts.ROUTES, Facts.RDMA, Facts.SSH, Facts.ROCECTL_TABLES);

    /** The one command that gathers a snapshot (run it without become so SSH_CONNECTION survives). */
    public static Cmd command() {
        return FactScript.command(FACTS);
    }

    public static NetSnapshot parse(String stdout) {
        return parse(FactScript.split(stdout));
    }

    /** From a fact script's output already split into its sections ({@link FactScript#split}). */
    public static NetSnapshot parse(Map<String, String> s) {
        RtTables t = FactScript.get(s, Facts.RT_TABLES);
        return new NetSnapshot(FactScript.get(s, Facts.HOSTNAME), FactScript.get(s, Facts.ADDR),
                IpJson.rules(FactScript.get(s, Facts.RULES), t), IpJson.routes(FactScript.get(s, Facts.ROUTES), t),
                t, FactScript.get(s, Facts.RDMA), FactScript.get(s, Facts.SSH), FactScript.get(s, Facts.ROCECTL_TABLES));
    }

    public Optional<Iface> iface(String name) {
        return ifaces.stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** The interface holding ip, if any. */
    public Optional<Iface> ifaceWithIp(String ip) {
        return ifaces.stream().filter(i -> i.hasIp(ip)).findFirst();
    }

    /** The RDMA port behind a netdev, if any. */
    public Optional<RdmaPort> rdmaOf(String netdev) {
        return rdma.stream().filter(p -> p.netdevs().contains(netdev)).findFirst();
    }
}
