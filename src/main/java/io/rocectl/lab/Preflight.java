package io.rocectl.lab;

import io.rocectl.error.InputError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Checks run before a lab is created (nothing exists yet when one fails): root, tools (installing
 * missing Debian/Ubuntu packages), name in use, subnets overlapping an address or route of the machine.
 */
public final class Preflight {
    /** Tool -> Debian/Ubuntu package providing it. */
    public static final Map<String, String> TOOLS = tools();

    private Preflight() {}

    private static Map<String, String> tools() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ip", "iproute2");
        m.put("nft", "nftables");
        m.put("sshd", "openssh-server");
        m.put("ssh", "openssh-client");
        m.put("ssh-keygen", "openssh-client");
        m.put("arping", "arping");
        m.put("ping", "iputils-ping");
        m.put("fping", "fping");
        m.put("nsenter", "util-linux");
        m.put("unshare", "util-linux");
        m.put("setsid", "util-linux");
        m.put("sysctl", "procps");
        return m;
    }

    /** Pure: packages providing the tools {@code present} says are missing, in a stable order. */
    public static List<String> missingPackages(Predicate<String> present) {
        Set<String> pk = new LinkedHashSet<>();
        TOOLS.forEach((tool, pkg) -> {
            if (!present.test(tool)) pk.add(pkg);
        });
        return List.copyOf(pk);
    }

    /** Whether an executable of that name is on PATH or in the sbin directories. */
    public static boolean onPath(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
        }
        return false;
    }

    public static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** Fails with a one-line error unless run as root. */
    public static void requireRoot(String what) {
        if (!isRoot()) throw new LabException("rocectl lab " + what + " needs root (namespaces, veths, sshd): run it with sudo");
    }

    /**
     * Installs missing tools with apt-get on Debian/Ubuntu as root (saying what), or fails naming the
     * packages elsewhere.
     */
    public static void ensureTools(java.io.PrintStream out) {
        List<String> missing = missingPackages(Preflight::onPath);
        if (missing.isEmpty()) return;
        boolean debian = Files.exists(Path.of("/etc/debian_version")) && onPath("apt-get");
        if (!debian || !isRoot()) {
            throw new LabException("missing tools; install the packages " + String.join(" ", missing));
        }
        out.println("installing missing packages: " + String.join(" ", missing) + " (apt-get install -y)");
        List<String> argv = new ArrayList<>(List.of("apt-get", "install", "-y", "--no-install-recommends"));
        argv.addAll(missing);
        io.rocectl.transport.ExecResult r = Shell.run(argv);
        if (!r.ok()) {
            Shell.run("apt-get", "update");
            Shell.check(argv.toArray(String[]::new));
        }
        List<String> still = missingPackages(Preflight::onPath);
        if (!still.isEmpty()) throw new LabException("still missing after apt-get: " + String.join(" ", still));
    }

    /** Pure: the first existing prefix that a lab subnet overlaps, as an error, or nothing. */
    public static void checkOverlap(LabSpec spec, List<Cidr> existing) {
        for (Cidr e : existing) {
            if (e.prefix() == 0) continue;
            if (e.overlaps(spec.fabric())) {
                throw new InputError("option --subnet", 0, 0, "fabric subnet " + spec.fabric() + " overlaps " + e
                        + ", already on this machine; choose another with --subnet");
            }
            if (e.overlaps(spec.mgmt())) {
                throw new InputError("option --mgmt-subnet", 0, 0, "management subnet " + spec.mgmt() + " overlaps " + e
                        + ", already on this machine; choose another with --mgmt-subnet");
            }
        }
    }

    /** Pure: IPv4 prefixes in {@code ip -4 -o addr show} and {@code ip -4 route show table all} output. */
    public static List<Cidr> prefixes(String addrOutput, String routeOutput) {
        List<Cidr> l = new ArrayList<>();
        for (String line : addrOutput.split("\n")) {
            String[] t = line.trim().split("\\s+");
            for (int i = 0; i + 1 < t.length; i++) if (t[i].equals("inet")) l.add(Cidr.parse(t[i + 1]));
        }
        Set<String> types = Set.of("unicast", "local", "broadcast", "multicast", "unreachable", "prohibit",
                "blackhole", "throw", "nat", "anycast");
        for (String line : routeOutput.split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length == 0 || t[0].isEmpty()) continue;
            String dst = types.contains(t[0]) && t.length > 1 ? t[1] : t[0];
            if (dst.equals("default") || !Character.isDigit(dst.charAt(0))) continue;
            l.add(Cidr.parse(dst));
        }
        return l;
    }

    /** Machine checks: name in use, subnets in use. */
    public static void checkMachine(LabSpec spec) {
        if (Files.exists(spec.dir().resolve(LabState.FILE))) {
            throw new InputError("option --name", 0, 0, "lab '" + spec.name() + "' already exists (" + spec.dir()
                    + "); run 'rocectl lab down --name " + spec.name() + "' first or pick another --name");
        }
        String prefix = spec.name() + "-";
        for (String ns : Shell.run("ip", "netns", "list").stdout().split("\n")) {
            String n = ns.trim().split("\\s+")[0];
            if (n.startsWith(prefix)) {
                throw new InputError("option --name", 0, 0, "name '" + spec.name() + "' in use: namespace " + n
                        + " exists; run 'rocectl lab down --name " + spec.name() + "'");
            }
        }
        if (Shell.run("ip", "link", "show", "dev", spec.name() + "-br").ok()) {
            throw new InputError("option --name", 0, 0, "name '" + spec.name() + "' in use: link " + spec.name() + "-br exists");
        }
        checkOverlap(spec, prefixes(Shell.check("ip", "-4", "-o", "addr", "show"),
                Shell.check("ip", "-4", "route", "show", "table", "all")));
        String tooBig = LabBatches.neighbourCapacityProblem(spec.hosts(), spec.nics(), memAvailable());
        if (tooBig != null) throw new InputError("option --hosts", 0, 0, "this machine cannot hold the lab's neighbour table: " + tooBig);
    }

    /** MemAvailable of /proc/meminfo in bytes, or -1 when unknown. */
    static long memAvailable() {
        try {
            for (String l : Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
                if (l.startsWith("MemAvailable:")) return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
