package io.rocectl.inventory;

import io.rocectl.error.InputError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * An executable inventory, read as Ansible's {@code script} inventory plugin reads it: a file
 * with the executable bit that starts with {@code #!} is run with {@code --list}; its JSON (or
 * YAML) maps each group to a list of hosts or to {@code hosts}/{@code vars}/{@code children}
 * (a mapping with none of those keys is one host of the group's name with those variables), and
 * {@code _meta.hostvars} holds every host's variables; without {@code _meta} the script is run
 * once more per host with {@code --host NAME}. The script runs on this machine when the inventory
 * loads, before any host is contacted; a failure or bad output is an input error.
 */
final class ScriptInventory {
    /** How long one run of the script may take. */
    private static final long TIMEOUT_SECONDS = 60;

    private ScriptInventory() {}

    /** Whether Ansible's script plugin takes the file: executable and starting with {@code #!}. */
    static boolean accepts(Path f) {
        if (!Files.isRegularFile(f) || !Files.isExecutable(f)) return false;
        try (InputStream in = Files.newInputStream(f)) {
            byte[] b = in.readNBytes(2);
            return b.length == 2 && b[0] == '#' && b[1] == '!';
        } catch (IOException e) {
            return false;
        }
    }

    @SuppressWarnings("unchecked")
    static void parse(Path script, InventoryBuilder b) {
        String file = script.toString();
        Object doc = output(script, "--list");
        if (!(doc instanceof Map<?, ?> top)) {
            throw new InputError(file, 0, 0, "inventory script --list must print a JSON object, got " + kind(doc));
        }
        Map<String, Object> hostvars = null;
        Set<String> hosts = new LinkedHashSet<>();
        for (Map.Entry<?, ?> e : top.entrySet()) {
            String group = String.valueOf(e.getKey());
            Object data = e.getValue();
            if (group.equals("_meta")) {
                if (data instanceof Map<?, ?> meta && meta.get("hostvars") instanceof Map<?, ?> hv) {
                    hostvars = (Map<String, Object>) hv;
                }
                continue;
            }
            group(file, group, data, b, hosts);
        }
        for (String h : hosts) {
            Object vars = hostvars != null ? hostvars.getOrDefault(h, Map.of()) : output(script, "--host", h);
            if (vars == null) vars = Map.of();
            if (!(vars instanceof Map<?, ?> m)) {
                throw new InputError(file, 0, 0, "variables of host '" + h + "' from the inventory script must be a"
                        + " JSON object, got " + kind(vars));
            }
            b.hostVars(h, stringKeys(m));
        }
    }

    private static void group(String file, String group, Object data, InventoryBuilder b, Set<String> hosts) {
        b.group(group);
        Map<?, ?> d;
        if (!(data instanceof Map<?, ?> m)) {
            d = Map.of("hosts", data == null ? List.of() : data);
        } else if (!m.containsKey("hosts") && !m.containsKey("vars") && !m.containsKey("children")) {
            d = Map.of("hosts", List.of(group), "vars", m);
        } else {
            d = m;
        }
        if (d.containsKey("hosts")) {
            if (!(d.get("hosts") instanceof List<?> l)) {
                throw new InputError(file, 0, 0, "group '" + group + "': 'hosts' from the inventory script must be a list,"
                        + " got " + kind(d.get("hosts")));
            }
            for (Object h : l) {
                String name = String.valueOf(h);
                hosts.add(name);
                b.addHost(group, name, Map.of());
            }
        }
        if (d.containsKey("vars")) {
            if (!(d.get("vars") instanceof Map<?, ?> v)) {
                throw new InputError(file, 0, 0, "group '" + group + "': 'vars' from the inventory script must be an"
                        + " object, got " + kind(d.get("vars")));
            }
            b.group(group).vars.putAll(stringKeys(v));
        }
        if (d.get("children") instanceof List<?> cs) {
            for (Object c : cs) b.link(group, String.valueOf(c), file, 0, 0);
        }
    }

    private static Map<String, Object> stringKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    /** Runs the script with the arguments and parses what it prints. */
    private static Object output(Path script, String... args) {
        String file = script.toString();
        List<String> argv = new ArrayList<>();
        argv.add(script.toAbsolutePath().toString());
        argv.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        } catch (IOException e) {
            throw new InputError(file, 0, 0, "cannot run inventory script: " + e.getMessage());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread o = pump(p.getInputStream(), out);
        Thread e = pump(p.getErrorStream(), err);
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new InputError(file, 0, 0, "inventory script " + String.join(" ", args) + " did not finish in "
                        + TIMEOUT_SECONDS + " s");
            }
            o.join();
            e.join();
        } catch (InterruptedException ie) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new InputError(file, 0, 0, "interrupted while running the inventory script");
        }
        if (p.exitValue() != 0) {
            throw new InputError(file, 0, 0, "inventory script " + String.join(" ", args) + " had an execution error (exit "
                    + p.exitValue() + "): " + err.toString(StandardCharsets.UTF_8).strip());
        }
        String text = out.toString(StandardCharsets.UTF_8);
        YamlDoc doc = YamlDoc.parse(file + " " + String.join(" ", args), text);
        return doc.root() == null ? null : doc.value(doc.root());
    }

    private static Thread pump(InputStream in, ByteArrayOutputStream to) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(to);
            } catch (IOException ignored) {
                // the script was killed
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String kind(Object o) {
        if (o == null) return "nothing";
        if (o instanceof Map) return "an object";
        if (o instanceof List) return "a list";
        return "'" + o + "'";
    }
}
