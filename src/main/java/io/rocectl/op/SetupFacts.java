package io.rocectl.op;

import io.rocectl.fact.Iface;
import io.rocectl.fact.Inet4;
import io.rocectl.fact.Ipv4;
import io.rocectl.fact.KernelRoute;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Builds Ansible-named facts ({@code ansible_hostname}, {@code ansible_eth0}, ...) from parsed facts (pure). */
public final class SetupFacts {
    private static final Map<String, String[]> DISTROS = Map.ofEntries(
            Map.entry("ubuntu", new String[] {"Ubuntu", "Debian"}), Map.entry("debian", new String[] {"Debian", "Debian"}),
            Map.entry("centos", new String[] {"CentOS", "RedHat"}), Map.entry("rhel", new String[] {"RedHat", "RedHat"}),
            Map.entry("rocky", new String[] {"Rocky", "RedHat"}), Map.entry("almalinux", new String[] {"AlmaLinux", "RedHat"}),
            Map.entry("fedora", new String[] {"Fedora", "RedHat"}), Map.entry("ol", new String[] {"OracleLinux", "RedHat"}),
            Map.entry("openEuler", new String[] {"openEuler", "RedHat"}), Map.entry("kylin", new String[] {"Kylin", "RedHat"}),
            Map.entry("anolis", new String[] {"Anolis", "RedHat"}), Map.entry("sles", new String[] {"SLES", "Suse"}),
            Map.entry("opensuse-leap", new String[] {"openSUSE Leap", "Suse"}));

    private SetupFacts() {}

    /** The key Ansible uses for an interface: {@code ansible_} + name with '-' and '.' as '_'. */
    public static String ifaceKey(String name) {
        return "ansible_" + name.replace('-', '_').replace('.', '_').replace(':', '_');
    }

    public static Map<String, Object> build(String nodename, String fqdn, String kernel, String arch,
                                            Map<String, String> os, List<Iface> ifaces, List<KernelRoute> defaults) {
        Map<String, Object> f = new LinkedHashMap<>();
        String shortName = nodename.contains(".") ? nodename.substring(0, nodename.indexOf('.')) : nodename;
        f.put("ansible_hostname", shortName);
        f.put("ansible_nodename", nodename);
        f.put("ansible_fqdn", fqdn.isEmpty() ? nodename : fqdn);
        f.put("ansible_kernel", kernel);
        f.put("ansible_architecture", arch);
        String id = os.getOrDefault("ID", "");
        String[] d = DISTROS.getOrDefault(id, new String[] {os.getOrDefault("NAME", id), capitalize(os.getOrDefault("ID_LIKE", id).split(" ")[0])});
        f.put("ansible_distribution", d[0]);
        f.put("ansible_os_family", d[1]);
        String ver = os.getOrDefault("VERSION_ID", "");
        f.put("ansible_distribution_version", ver);
        f.put("ansible_distribution_major_version", ver.contains(".") ? ver.substring(0, ver.indexOf('.')) : ver);
        f.put("ansible_distribution_release", os.getOrDefault("VERSION_CODENAME", ""));
        f.put("ansible_system", "Linux");
        List<String> names = new ArrayList<>();
        List<String> all4 = new ArrayList<>();
        for (Iface i : ifaces) {
            names.add(i.name());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("device", i.name());
            m.put("macaddress", i.mac());
            m.put("mtu", i.mtu());
            m.put("active", i.up() && (i.carrier() || i.loopback()));
            m.put("operstate", i.operstate());
            m.put("type", i.loopback() ? "loopback" : i.kind().isEmpty() ? "ether" : i.kind());
            if (!i.inet().isEmpty()) {
                m.put("ipv4", ipv4(i.inet().get(0)));
                List<Object> sec = new ArrayList<>();
                for (Inet4 a : i.inet().subList(1, i.inet().size())) sec.add(ipv4(a));
                if (!sec.isEmpty()) m.put("ipv4_secondaries", sec);
            }
            for (Inet4 a : i.inet()) if (!i.loopback()) all4.add(a.ip());
            f.put(ifaceKey(i.name()), m);
        }
        f.put("ansible_interfaces", names);
        f.put("ansible_all_ipv4_addresses", all4);
        Map<String, Object> def = new LinkedHashMap<>();
        KernelRoute r = defaults.stream().filter(x -> "default".equals(x.dst()) && x.table() == 254)
                .min((a, b) -> Integer.compare(a.metric(), b.metric())).orElse(null);
        if (r != null) {
            Iface i = ifaces.stream().filter(x -> x.name().equals(r.dev())).findFirst().orElse(null);
            if (i != null && !i.inet().isEmpty()) {
                Inet4 a = r.prefsrc().isEmpty() ? i.inet().get(0)
                        : i.inet().stream().filter(x -> x.ip().equals(r.prefsrc())).findFirst().orElse(i.inet().get(0));
                def.putAll(ipv4(a));
                def.put("interface", i.name());
                def.put("gateway", r.gateway());
                def.put("macaddress", i.mac());
                def.put("mtu", i.mtu());
            }
        }
        f.put("ansible_default_ipv4", def);
        return f;
    }

    private static Map<String, Object> ipv4(Inet4 a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address", a.ip());
        m.put("netmask", Ipv4.fromLong(Ipv4.mask(a.prefix())));
        m.put("network", Ipv4.network(a.ip(), a.prefix()));
        m.put("prefix", String.valueOf(a.prefix()));
        return m;
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
