package io.rocectl.nodecheck;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rocectl.error.InputError;
import io.rocectl.probe.NicEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The endpoints file ({@code /etc/rocectl/endpoints.json}): what a node needs to check itself
 * without the inventory. Written by {@code rocectl run} (the fix playbook's {@code roce_probe}) and
 * {@code rocectl remediate} on every host whose NICs they read; read by {@code rocectl node-check}.
 * Versioned JSON:
 * <pre>
 * {"format": "rocectl-endpoints", "version": 1, "cluster": "c1", "generated": "2026-01-01T00:00:00Z",
 *  "hosts": {"gpu01": {"slurm_node_name": "gpu01", "vars": {"roce_nics": ["ens1f0"]},
 *            "nics": [{"name": "ens1f0", "ip": "10.0.0.1", "prefix": 24, "rail": 0, "mac": "02:..."}]}}}
 * </pre>
 * {@code vars} are the host's variables the fix reads locally ({@link #FIX_VAR_PREFIX}, and
 * {@code ansible_host}, which tells the management NIC). Parsing is strict: a bad file is an
 * {@link InputError} naming the file and the key.
 */
public record EndpointsFile(int version, String cluster, String generated, Map<String, Host> hosts) {
    public static final String FORMAT = "rocectl-endpoints";
    public static final int VERSION = 1;
    public static final Path DEFAULT = Path.of("/etc/rocectl/endpoints.json");
    /** Host variables carried for the local fix: those starting with this prefix. */
    public static final String FIX_VAR_PREFIX = "roce_";
    /** Larger files are refused (1,024 hosts x 8 NICs take about 1 MiB). */
    public static final long MAX_BYTES = 32L << 20;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /** One host: its Slurm node name, the fix's variables and its RoCE NICs. */
    public record Host(String slurmNodeName, Map<String, Object> vars, List<NicEndpoint> nics) {
        public Host {
            vars = Map.copyOf(vars);
            nics = List.copyOf(nics);
        }
    }

    public EndpointsFile {
        hosts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(hosts));
    }

    /**
     * The file for {@code endpoints} (host -> its RoCE NICs, as a run read them), with each host's
     * variables from {@code vars}.
     */
    public static EndpointsFile of(String cluster, Instant generated, Map<String, List<NicEndpoint>> endpoints,
                                   Function<String, Map<String, Object>> vars) {
        Map<String, Host> hosts = new LinkedHashMap<>();
        endpoints.forEach((h, nics) -> {
            Map<String, Object> v = vars.apply(h);
            Object node = v.get("slurm_node_name");
            hosts.put(h, new Host(node == null ? h : String.valueOf(node), fixVars(v), nics));
        });
        return new EndpointsFile(VERSION, cluster, generated.truncatedTo(ChronoUnit.SECONDS).toString(), hosts);
    }

    /** The variables a local fix run needs: {@code roce_*} and {@code ansible_host}, plain data only (no templates). */
    static Map<String, Object> fixVars(Map<String, Object> v) {
        Map<String, Object> out = new java.util.TreeMap<>();
        v.forEach((k, val) -> {
            if ((k.startsWith(FIX_VAR_PREFIX) || k.equals("ansible_host")) && plain(val)) out.put(k, val);
        });
        return out;
    }

    private static boolean plain(Object o) {
        if (o == null || o instanceof Boolean || o instanceof Number) return true;
        if (o instanceof String s) return !s.contains("{{") && !s.contains("{%");
        if (o instanceof List<?> l) return l.stream().allMatch(EndpointsFile::plain);
        if (o instanceof Map<?, ?> m) return m.keySet().stream().allMatch(k -> k instanceof String) && m.values().stream()
                .allMatch(EndpointsFile::plain);
        return false;
    }

    /** The file's JSON text (ends with a newline). */
    public String render() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("version", version);
        root.put("cluster", cluster);
        root.put("generated", generated);
        Map<String, Object> hs = new LinkedHashMap<>();
        hosts.forEach((name, h) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("slurm_node_name", h.slurmNodeName());
            m.put("vars", h.vars());
            List<Map<String, Object>> nics = new ArrayList<>();
            for (NicEndpoint n : h.nics()) {
                Map<String, Object> nm = new LinkedHashMap<>();
                nm.put("name", n.nic());
                nm.put("ip", n.ip());
                nm.put("prefix", n.prefixLen());
                nm.put("rail", n.rail());
                if (n.mac() != null) nm.put("mac", n.mac());
                nics.add(nm);
            }
            m.put("nics", nics);
            hs.put(name, m);
        });
        root.put("hosts", hs);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the endpoints file", e);
        }
    }

    /** Reads and checks {@code file}; InputError naming the file (and the key) when it is missing or wrong. */
    public static EndpointsFile read(Path file) {
        String where = file.toString();
        try {
            if (!Files.isRegularFile(file)) {
                throw new InputError(where, 0, 0, "no endpoints file (rocectl run or remediate writes it on every host; "
                        + "or give one with --endpoints)");
            }
            if (Files.size(file) > MAX_BYTES) throw new InputError(where, 0, 0, "larger than " + MAX_BYTES + " bytes");
            return parse(where, Files.readString(file));
        } catch (IOException e) {
            throw new InputError(where, 0, 0, "cannot read: " + e.getMessage());
        }
    }

    /** Parses the text of a file named {@code where}. */
    public static EndpointsFile parse(String where, String text) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new InputError(where, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    e.getLocation() == null ? 0 : e.getLocation().getColumnNr(), "not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) throw new InputError(where, 0, 0, "not a JSON object");
        if (!FORMAT.equals(root.path("format").asText(null))) {
            throw new InputError(where, 0, 0, "key 'format' must be \"" + FORMAT + "\"");
        }
        JsonNode ver = root.get("version");
        if (ver == null || !ver.isInt()) throw new InputError(where, 0, 0, "key 'version' must be a whole number");
        if (ver.asInt() != VERSION) {
            throw new InputError(where, 0, 0, "version " + ver.asInt() + " is not one this rocectl reads (it reads " + VERSION
                    + "); rewrite it with this rocectl's run or remediate");
        }
        String cluster = text(where, root, "cluster", true);
        if (cluster != null && !NAME.matcher(cluster).matches()) throw bad(where, "cluster", "'" + cluster + "' is not a cluster name");
        String generated = text(where, root, "generated", false);
        JsonNode hs = root.get("hosts");
        if (hs == null || !hs.isObject()) throw new InputError(where, 0, 0, "key 'hosts' must be an object of hosts");
        Map<String, Host> hosts = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : hs.properties()) hosts.put(e.getKey(), host(where, e.getKey(), e.getValue()));
        if (hosts.isEmpty()) throw new InputError(where, 0, 0, "key 'hosts' lists no host");
        return new EndpointsFile(VERSION, cluster, generated, hosts);
    }

    private static Host host(String where, String name, JsonNode h) {
        String key = "hosts." + name;
        if (!h.isObject()) throw bad(where, key, "must be an object");
        String node = text(where, h, "slurm_node_name", true);
        if (node == null) node = name;
        Map<String, Object> vars = new LinkedHashMap<>();
        JsonNode v = h.get("vars");
        if (v != null && !v.isNull()) {
            if (!v.isObject()) throw bad(where, key + ".vars", "must be an object");
            @SuppressWarnings("unchecked")
            Map<String, Object> m = new ObjectMapper().convertValue(v, Map.class);
            m.forEach((k, val) -> {
                if (val != null) vars.put(k, val);
            });
        }
        JsonNode ns = h.get("nics");
        if (ns == null || !ns.isArray()) throw bad(where, key + ".nics", "must be a list of NICs");
        List<NicEndpoint> nics = new ArrayList<>();
        for (int i = 0; i < ns.size(); i++) {
            JsonNode n = ns.get(i);
            String k = key + ".nics[" + i + "]";
            if (!n.isObject()) throw bad(where, k, "must be an object");
            JsonNode prefix = n.get("prefix"), rail = n.get("rail");
            if (prefix == null || !prefix.isInt()) throw bad(where, k + ".prefix", "must be a whole number");
            if (rail == null || !rail.isInt()) throw bad(where, k + ".rail", "must be a whole number");
            try {
                nics.add(new NicEndpoint(name, text(where, n, "name", false), text(where, n, "ip", false), prefix.asInt(),
                        text(where, n, "mac", true), null, null, rail.asInt()));
            } catch (IllegalArgumentException ex) {
                throw bad(where, k, ex.getMessage());
            }
        }
        return new Host(node, vars, nics);
    }

    private static String text(String where, JsonNode o, String key, boolean optional) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) {
            if (optional) return null;
            throw bad(where, key, "is missing");
        }
        if (!v.isTextual()) throw bad(where, key, "must be a string");
        return v.asText();
    }

    private static InputError bad(String where, String key, String msg) {
        return new InputError(where, 0, 0, "key '" + key + "' " + msg);
    }

    /** The host whose NIC addresses this machine holds (null when none); several: the one with most. */
    public String self(java.util.Set<String> localIps) {
        String best = null;
        int most = 0;
        for (Map.Entry<String, Host> e : hosts.entrySet()) {
            int n = (int) e.getValue().nics().stream().filter(x -> localIps.contains(x.ip())).count();
            if (n > most) {
                most = n;
                best = e.getKey();
            }
        }
        return best;
    }
}
