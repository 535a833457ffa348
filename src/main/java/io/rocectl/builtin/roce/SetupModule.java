package io.rocectl.builtin.roce;

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
 * {@code ansible_default_ipv4}, {@code ansible_processor_vcpus}, {@code ansible_memtotal_mb}).
 * The engine also gives them as {@code ansible_facts} without the prefix. Needs only sh, uname,
 * grep and iproute2 on the host.
 */
public final class SetupModule implements Module {
    /** Processors as Ansible's Linux facts count them (the processor entries of /proc/cpuinfo). */
    static final Fact<String> VCPUS = new Fact<>("vcpus", "grep -c '^processor' /proc/cpuinfo", String::strip);
    /** The MemTotal line of /proc/meminfo (kB). */
    static final Fact<String> MEMTOTAL = new Fact<>("memtotal", "grep '^MemTotal:' /proc/meminfo", String::strip);
    static final List<Fact<?>> FACTS = List.of(Facts.HOSTNAME, Facts.FQDN, Facts.KERNEL, Facts.ARCH,
            Facts.OS_RELEASE, Facts.ADDR, Facts.DEFAULT_ROUTE, VCPUS, MEMTOTAL);

    @Override
    public String name() { return "setup"; }

    /** Ansible's setup returns no msg. */
    @Override
    public boolean registersMessage() { return false; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("gather_subset", ArgSpec.Type.ANY).opt("filter", ArgSpec.Type.ANY);
    }

    /** Parses the gather output into Ansible facts (pure). */
    public static Map<String, Object> parse(String stdout) {
        Map<String, String> s = FactScript.split(stdout);
        Map<String, Object> f = new java.util.LinkedHashMap<>(SetupFacts.build(FactScript.get(s, Facts.HOSTNAME), FactScript.get(s, Facts.FQDN),
                FactScript.get(s, Facts.KERNEL), FactScript.get(s, Facts.ARCH), FactScript.get(s, Facts.OS_RELEASE),
                FactScript.get(s, Facts.ADDR), IpJson.routes(FactScript.get(s, Facts.DEFAULT_ROUTE), new RtTables())));
        String vcpus = FactScript.get(s, VCPUS);
        if (vcpus.matches("\\d+")) f.put("ansible_processor_vcpus", Integer.parseInt(vcpus));
        java.util.regex.Matcher mem = java.util.regex.Pattern.compile("MemTotal:\\s+(\\d+)").matcher(FactScript.get(s, MEMTOTAL));
        if (mem.find()) f.put("ansible_memtotal_mb", Long.parseLong(mem.group(1)) / 1024);
        return f;
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
