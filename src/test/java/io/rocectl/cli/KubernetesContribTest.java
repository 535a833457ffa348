package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.nodecheck.NodeReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * contrib/kubernetes holds NPD's custom-plugin monitor and a DaemonSet; no cluster runs here, so the
 * contract is checked from the files: the command is a node-check invocation rocectl's command model
 * accepts, in the npd format; the timeout is below the interval and above node-check's own bound; the
 * output fits NPD's length; the exit codes are NPD's; the DaemonSet mounts the monitor where NPD reads it.
 */
class KubernetesContribTest {
    static final Path DIR = Path.of("contrib/kubernetes");
    static final String MONITOR = "rocectl-node-check.json";

    static JsonNode monitor() throws Exception {
        return new ObjectMapper().readTree(Files.readString(DIR.resolve(MONITOR)));
    }

    static long seconds(String d) {
        assertTrue(d.matches("\\d+s"), "a duration in seconds: " + d);
        return Long.parseLong(d.substring(0, d.length() - 1));
    }

    @Test
    void theMonitorRunsARealNodeCheckInTheNpdFormat() throws Exception {
        JsonNode m = monitor();
        assertEquals("custom", m.path("plugin").asText());
        JsonNode rules = m.path("rules");
        assertTrue(rules.isArray() && rules.size() > 0, "rules");
        for (JsonNode rule : rules) {
            List<String> argv = new ArrayList<>();
            argv.add(rule.path("path").asText());
            rule.path("args").forEach(a -> argv.add(a.asText()));
            int at = argv.indexOf("node-check");
            assertTrue(at > 0 && argv.get(at - 1).endsWith("/rocectl"), "runs rocectl node-check: " + argv);
            List<String> sub = argv.subList(at, argv.size());
            CommandLine.ParseResult pr = RocectlCommand.commandLine().parseArgs(sub.toArray(String[]::new));
            CommandLine.ParseResult nc = pr.subcommand();
            assertEquals("node-check", nc.commandSpec().name());
            assertEquals("npd", nc.matchedOptionValue("--format", "nhc"), "NPD's contract needs --format npd: " + sub);
            // the condition the rule sets is declared, with its healthy default
            String cond = rule.path("condition").asText();
            boolean declared = false;
            for (JsonNode c : m.path("conditions")) declared |= c.path("type").asText().equals(cond);
            assertTrue(declared, "condition " + cond + " is declared");
            assertEquals("permanent", rule.path("type").asText());
            long timeout = seconds(rule.path("timeout").asText(m.path("pluginConfig").path("timeout").asText()));
            long interval = seconds(m.path("pluginConfig").path("invoke_interval").asText());
            assertTrue(timeout < interval, "timeout " + timeout + " s below the interval " + interval + " s");
            assertTrue(timeout > NodeCheckCommand.DEADLINE_S, "NPD waits longer than node-check's own bound of "
                    + NodeCheckCommand.DEADLINE_S + " s");
        }
        assertTrue(m.path("pluginConfig").path("max_output_length").asInt() >= NodeReport.NPD_MAX,
                "NPD keeps the whole npd line");
    }

    @Test
    void nodeCheckExitCodesAreNpds() {
        // NPD: 0 OK, 1 NonOK, 2 Unknown; node-check's own codes: 0 ok, 2 fault, 4 unknown, 5 bad input, 9 Slurm failed
        assertEquals(Map.of(0, 0, 2, 1, 4, 2, 5, 2, 9, 2, 1, 2), Map.of(0, NodeReport.npdExit(0), 2, NodeReport.npdExit(2),
                4, NodeReport.npdExit(4), 5, NodeReport.npdExit(5), 9, NodeReport.npdExit(9), 1, NodeReport.npdExit(1)));
        String help = RocectlCommand.commandLine().getSubcommands().get("node-check").getUsageMessage();
        assertTrue(help.contains("npd: 0 OK, 1 NonOK,") && help.contains("2 Unknown"), help);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theDaemonSetRunsNpdWithTheMonitorOnTheHostNetwork() throws Exception {
        Map<String, Object> ds = new Yaml().load(Files.readString(DIR.resolve("node-problem-detector-rocectl.yaml")));
        assertEquals("DaemonSet", ds.get("kind"));
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) ds.get("spec"))
                .get("template")).get("spec");
        assertEquals(Boolean.TRUE, pod.get("hostNetwork"), "the node's NICs");
        assertEquals(Boolean.TRUE, pod.get("hostPID"), "nsenter --target 1 reaches the host");
        List<Map<String, Object>> containers = (List<Map<String, Object>>) pod.get("containers");
        Map<String, Object> npd = containers.get(0);
        List<String> cmd = new ArrayList<>((List<String>) npd.get("command"));
        String flag = "--config.custom-plugin-monitor=";
        String path = cmd.stream().filter(a -> a.startsWith(flag)).findFirst().orElseThrow().substring(flag.length());
        assertTrue(path.endsWith("/" + MONITOR), path);
        String dir = path.substring(0, path.lastIndexOf('/'));
        String volume = null;
        for (Map<String, Object> vm : (List<Map<String, Object>>) npd.get("volumeMounts")) {
            if (dir.equals(vm.get("mountPath"))) volume = (String) vm.get("name");
        }
        assertTrue(volume != null, "the monitor's directory is mounted");
        boolean fromConfigMap = false;
        for (Map<String, Object> v : (List<Map<String, Object>>) pod.get("volumes")) {
            if (volume.equals(v.get("name")) && v.get("configMap") instanceof Map<?, ?> cm) {
                for (Map<String, Object> item : (List<Map<String, Object>>) cm.get("items")) {
                    fromConfigMap |= MONITOR.equals(item.get("key")) && MONITOR.equals(item.get("path"));
                }
            }
        }
        assertTrue(fromConfigMap, "the monitor comes from the ConfigMap made of " + MONITOR);
        Map<String, Object> sc = (Map<String, Object>) npd.get("securityContext");
        assertEquals(Boolean.TRUE, sc.get("privileged"), "nsenter into the host's namespaces");
    }
}
