package io.rocectl.modules.roce;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.fact.Facts;
import io.rocectl.fact.IpJson;
import io.rocectl.fact.RtTables;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.op.SetupFacts;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.List;
import java.util.Map;

/**
 * {@code setup} (gather_facts): hostname, OS release, kernel, interfaces with addresses, MAC, MTU
 * and state, and the default IPv4 route, in one round trip; facts under Ansible's names
 * ({@code ansible_hostname}, {@code ansible_kernel}, {@code ansible_distribution},
 * {@code ansible_distribution_version}, {@code ansible_interfaces}, {@code ansible_<ifname>}
 * with {@code ipv4}, {@code macaddress}, {@code mtu}, {@code active}, and
 * {@code ansible_default_ipv4}). Needs only sh, uname and iproute2 on the host.
 */
public final class SetupModule implements Module {
    static final List<Fact<?>> FACTS = List.of(Facts.HOSTNAME, Facts.FQDN, Facts.KERNEL, Facts.ARCH,
            Facts.OS_RELEASE, Facts.ADDR, Facts.DEFAULT_ROUTE);

    @Override
    public String name() { return "setup"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("gather_subset", ArgSpec.Type.ANY).opt("filter", ArgSpec.Type.ANY);
    }

    /** Parses the gather output into Ansible facts (pure). */
    public static Map<String, Object> parse(String stdout) {
        Map<String, String> s = FactScript.split(stdout);
        return SetupFacts.build(FactScript.get(s, Facts.HOSTNAME), FactScript.get(s, Facts.FQDN),
                FactScript.get(s, Facts.KERNEL), FactScript.get(s, Facts.ARCH), FactScript.get(s, Facts.OS_RELEASE),
                FactScript.get(s, Facts.ADDR), IpJson.routes(FactScript.get(s, Facts.DEFAULT_ROUTE), new RtTables()));
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = ctx.connection().exec(FactScript.command(FACTS), ctx.commandTimeout());
        Map<String, Object> facts;
        try {
            facts = parse(r.stdout());
        } catch (RuntimeException e) {
            throw new ModuleException("cannot gather facts: " + e.getMessage(), e);
        }
        if (String.valueOf(facts.get("ansible_hostname")).isEmpty()) {
            return ModuleResult.failed("cannot gather facts: no output from uname (" + r.stderr().strip() + ")");
        }
        return ModuleResult.ok("facts gathered").withFacts(facts).withData(Map.of("ansible_facts", facts));
    }
}
