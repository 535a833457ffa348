package io.rocectl.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import io.rocectl.transport.ExecResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Helpers for the RoCE playbook end-to-end tests on a lab: the real CLI with {@code --output json},
 * ARP checks with arping inside the namespaces, and the management NIC's state. Pair pings come
 * from {@link LabTestSupport}.
 */
final class RoceE2eSupport {
    static final String PLAYBOOK = "playbooks/roce-multinic.yaml";
    private static final Pattern REPLY = Pattern.compile("bytes from (([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}) \\(([0-9.]+)\\)");

    private RoceE2eSupport() {}

    /** A run of the real CLI: its exit code, its JSON document (null if none) and what it printed. */
    record Run(int exitCode, JsonNode json, String out, String err) {
        /** changed count of each host from the recap. */
        Map<String, Integer> changed() {
            Map<String, Integer> m = new LinkedHashMap<>();
            json.path("stats").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().path("changed").asInt()));
            return m;
        }

        /** Titles of the tasks that reported changed on that host. */
        List<String> changedTasks(String host) {
            List<String> out = new ArrayList<>();
            for (JsonNode t : json.path("plays").get(0).path("tasks")) {
                if (t.path("hosts").path(host).path("status").asText().equals("changed")) out.add(t.path("task").asText());
            }
            return out;
        }

        /** One host's result of the first task with that module-ish name in the task title. */
        JsonNode task(String titlePart, String host) {
            for (JsonNode t : json.path("plays").get(0).path("tasks")) {
                if (t.path("task").asText().contains(titlePart)) return t.path("hosts").path(host);
            }
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n" + out + err;
        }
    }

    /** {@code rocectl run PLAYBOOK -i <lab inventory> --output json ARGS...} in process. */
    static Run run(LabState s, String playbook, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", playbook, "-i", s.inventory().toString(), "--output", "json"));
        args.addAll(List.of(extra));
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        JsonNode doc = null;
        int brace = r.out().indexOf('{');
        if (brace >= 0) doc = new ObjectMapper().readTree(r.out().substring(brace));
        return new Run(r.exitCode(), doc, r.out(), r.err());
    }

    /** One arping reply: the MAC that answered and for which IP. */
    record Reply(String mac, String ip) {}

    /**
     * For every fabric NIC of every host, arping (Thomas Habets' arping: {@code -i} interface,
     * {@code -S} source, {@code -W} interval, {@code -w} deadline) to every NIC of the other hosts:
     * key "host/nic->peerIp", value the distinct MACs that answered. NICs run in parallel, the
     * peers of one NIC one after another (concurrent arpings on one NIC would see each other's replies).
     */
    static Map<String, List<String>> arpMacs(LabState s) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Map<String, Future<ExecResult>> runs = new LinkedHashMap<>();
            Map<String, List<String>> peersOf = new LinkedHashMap<>();
            for (LabHost h : s.hosts()) {
                for (LabNic n : h.nics()) {
                    List<String> peers = new ArrayList<>();
                    for (LabHost o : s.hosts()) if (o != h) o.nics().forEach(x -> peers.add(x.ip()));
                    List<String> argv = new ArrayList<>(List.of("sh", "-c",
                            "i=$1; src=$2; shift 2; for p; do echo \"== $p\"; arping -c 2 -W 0.2 -w 1 -i \"$i\" -S \"$src\" \"$p\"; done",
                            "sh", n.name(), n.ip()));
                    argv.addAll(peers);
                    String key = h.name() + "/" + n.name();
                    peersOf.put(key, peers);
                    runs.put(key, pool.submit(() -> Lab.run(s, h.name(), argv)));
                }
            }
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (Map.Entry<String, Future<ExecResult>> e : runs.entrySet()) {
                String text = e.getValue().get().stdout();
                for (String block : text.split("== ")) {
                    if (block.isBlank()) continue;
                    String peer = block.substring(0, block.indexOf('\n')).strip();
                    List<String> macs = new ArrayList<>();
                    Matcher m = REPLY.matcher(block);
                    while (m.find()) {
                        String mac = m.group(1).toLowerCase();
                        if (!macs.contains(mac)) macs.add(mac);
                    }
                    out.put(e.getKey() + "->" + peer, macs);
                }
                for (String p : peersOf.get(e.getKey())) out.putIfAbsent(e.getKey() + "->" + p, List.of());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Pairs whose arping did not see exactly one MAC, the peer NIC's own: "pair: [macs] (want mac)". */
    static List<String> arpProblems(LabState s, Map<String, List<String>> macs) {
        Map<String, String> macOf = new LinkedHashMap<>();
        for (LabHost h : s.hosts()) for (LabNic n : h.nics()) macOf.put(n.ip(), n.mac().toLowerCase());
        List<String> bad = new ArrayList<>();
        macs.forEach((pair, seen) -> {
            String want = macOf.get(pair.substring(pair.indexOf("->") + 2));
            if (!seen.equals(List.of(want))) bad.add(pair + ": " + seen + " (want " + want + ")");
        });
        return bad;
    }

    /**
     * Everything of the management NIC that rocectl must leave alone: its addresses and link,
     * its per-interface IPv4 and neighbour sysctls, every IPv4 route through it (all tables) and
     * every rule that mentions it or its address.
     */
    static String mgmtState(LabState s, LabHost h) {
        String script = "ip -4 -o addr show dev mgmt0; ip -o link show dev mgmt0 | sed 's/ state [A-Z]*//';"
                + " grep -r . /proc/sys/net/ipv4/conf/mgmt0/ /proc/sys/net/ipv4/neigh/mgmt0/ | sort;"
                + " ip -4 route show table all | grep -w mgmt0 | sort;"
                + " ip -4 rule show | grep -e mgmt0 -e \"$1\" || true";
        ExecResult r = Lab.run(s, h.name(), List.of("sh", "-c", script, "sh", h.mgmtIp()));
        if (!r.ok() || r.stdout().isBlank()) throw new IllegalStateException("cannot read mgmt0 state: " + r.stderr());
        return r.stdout();
    }

    /** IPv4 rules and routes of every table, numeric (names depend on rt_tables files). */
    static String routing(LabState s, String host) {
        return Lab.run(s, host, List.of("sh", "-c", "ip -N -4 rule show; ip -N -4 route show table all | sort")).stdout();
    }
}
