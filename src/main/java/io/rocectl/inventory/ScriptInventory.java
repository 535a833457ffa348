package io.rocectl.inventory;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rocectl.error.InputError;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
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
 * that starts with {@code #!} (or an executable binary) is run with {@code --list}; its JSON maps
 * each group to a list of hosts or to {@code hosts}/{@code vars}/{@code children} (a mapping with
 * none of those keys is one host of the group's name with those variables), and
 * {@code _meta.hostvars} holds every host's variables; without {@code _meta} the script is run
 * once more per host with {@code --host NAME} (JSON or YAML; its exit status is not looked at, as
 * in Ansible). The script runs on this machine when the inventory loads, before any host is
 * contacted.
 *
 * <p>A script that cannot run, exits non-zero, or prints no JSON object fails before anything is
 * read: {@link ListFailure}, and the loader goes on as Ansible does (its other plugins, else a
 * warning and the other sources). A failure after groups were read (bad group data, a bad
 * {@code --host} answer) is an input error: Ansible keeps the half-read inventory there, which
 * rocectl does not reproduce. A run longer than {@link #TIMEOUT_SECONDS} is an input error too.
 */
final class ScriptInventory {
    /** How long one run of the script may take. */
    private static final long TIMEOUT_SECONDS = 60;

    private ScriptInventory() {}

    /**
     * The script plugin failed before reading anything: the script could not run, exited
     * non-zero, or printed no JSON object. The message is Ansible's for the same failure.
     */
    static final class ListFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ListFailure(String message) {
            super(message);
        }
    }

    /**
     * Whether Ansible's script plugin takes the file: one starting with {@code #!} (executable or
     * not: a script without the executable bit fails to run, as in Ansible), or an executable
     * binary. An executable text file without {@code #!} is left to the other formats: Ansible's
     * attempt to run it fails ("Exec format error") before it reads the file as they do.
     */
    static boolean accepts(Path f) {
        if (!Files.isRegularFile(f)) return false;
        try (InputStream in = Files.newInputStream(f)) {
            byte[] b = in.readNBytes(4);
            if (b.length >= 2 && b[0] == '#' && b[1] == '!') return true;
            return b.length == 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F' && Files.isExecutable(f);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Runs the script and reads what it prints into b.
     *
     * @throws ListFailure when nothing could be read (b is untouched)
     * @throws InputError  when the script's answer cannot be used after groups were read, or it hangs
     */
    @SuppressWarnings("unchecked")
    static void parse(Path script, InventoryBuilder b) {
        String file = script.toString();
        Map<?, ?> top = (Map<?, ?>) list(script);
        Map<String, Object> hostvars = null;
        Set<String> hosts = new LinkedHashSet<>();
        for (Map.Entry<?, ?> e : top.entrySet()) {
            String group = String.valueOf(e.getKey());
            Object data = e.getValue();
            if (group.equals("_meta")) {
                if (data instanceof Map<?, ?> meta && meta.containsKey("hostvars")) {
                    if (!(meta.get("hostvars") instanceof Map<?, ?> hv)) {
                        throw new InputError(file, 0, 0, "_meta.hostvars from the inventory script must be an object, got "
                                + kind(meta.get("hostvars")) + HALF_READ);
                    }
                    hostvars = (Map<String, Object>) hv;
                }
                continue;
            }
            group(file, group, data, b, hosts);
        }
        for (String h : hosts) {
            Object vars;
            if (hostvars != null) {
                vars = hostvars.getOrDefault(h, Map.of());
                if (vars == null) vars = Map.of();
            } else {
                vars = host(script, h);
            }
            if (!(vars instanceof Map<?, ?> m)) {
                throw new InputError(file, 0, 0, "variables of host '" + h + "' from the inventory script must be a"
                        + " JSON object, got " + kind(vars) + HALF_READ);
            }
            b.hostVars(h, stringKeys(m));
        }
    }

    /** Why a failure after the groups were read is refused rather than warned about. */
    private static final String HALF_READ = " (Ansible goes on with the part of this inventory read so far; rocectl"
            + " refuses it)";

    /** {@code SCRIPT --list} as a JSON object (a map); a {@link ListFailure} when it is not one. */
    private static Object list(Path script) {
        String file = script.toString();
        if (!Files.isExecutable(script)) {
            throw new ListFailure("problem running " + file + " --list ([Errno 13] Permission denied: '" + file + "')");
        }
        Ran r = run(script, "--list");
        if (r.exit() != 0) throw new ListFailure("Inventory script (" + file + ") had an execution error: " + r.err().strip());
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(r.out())).toString();
        } catch (CharacterCodingException e) {
            throw new ListFailure("Inventory " + file + " contained characters that cannot be interpreted as UTF-8");
        }
        Json j = json(text);
        if (j.error() != null) {
            throw new ListFailure("failed to parse executable inventory script results from " + file + ": " + j.error());
        }
        Object v = j.value();
        if (!(v instanceof Map)) {
            throw new ListFailure("failed to parse executable inventory script results from " + file + ": needs to be a json dict");
        }
        return v;
    }

    /** {@code SCRIPT --host NAME}: JSON or YAML, whatever its exit status (Ansible reads it so). */
    private static Object host(Path script, String h) {
        String file = script.toString();
        Ran r = run(script, "--host", h);
        String text = new String(r.out(), StandardCharsets.UTF_8);
        Json j = json(text);
        if (j.error() == null) return j.value();
        try {
            YamlDoc doc = YamlDoc.parse(file + " --host " + h, text);
            return doc.root() == null ? null : doc.value(doc.root());
        } catch (InputError e) {
            throw new InputError(file, 0, 0, "could not parse the answer of --host " + h + ": " + e.getMessage() + HALF_READ);
        }
    }

    /** A JSON text's value, or why it is not JSON. */
    private record Json(Object value, String error) {}

    /**
     * A JSON text as Python's {@code json.loads} reads it (maps, lists, numbers, strings,
     * booleans, null; duplicate keys: the last one).
     */
    private static Json json(String text) {
        try {
            if (text.isBlank()) throw new IOException("Expecting value: line 1 column 1 (char 0)");
            return new Json(StrictJson.MAPPER.readValue(text, Object.class), null);
        } catch (IOException e) {
            return new Json(null, e.getMessage() == null ? "not JSON" : e.getMessage().lines().findFirst().orElse("not JSON"));
        }
    }

    /**
     * Python's {@code json.loads}: one JSON value and nothing after it (NaN and Infinity allowed).
     * Made on first use (a mapper costs tens of milliseconds at start-up; most inventories are files).
     */
    private static final class StrictJson {
        static final ObjectMapper MAPPER = JsonMapper.builder()
                .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
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
                        + " got " + kind(d.get("hosts")) + HALF_READ);
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
                        + " object, got " + kind(d.get("vars")) + HALF_READ);
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

    private record Ran(int exit, byte[] out, String err) {}

    /** Runs the script with the arguments (stdin empty) and collects what it prints. */
    private static Ran run(Path script, String... args) {
        String file = script.toString();
        List<String> argv = new ArrayList<>();
        argv.add(script.toAbsolutePath().toString());
        argv.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        } catch (IOException e) {
            String what = "problem running " + file + " " + String.join(" ", args) + " (" + e.getMessage() + ")";
            if (args[0].equals("--list")) throw new ListFailure(what);
            throw new InputError(file, 0, 0, what + HALF_READ);
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
        return new Ran(p.exitValue(), out.toByteArray(), err.toString(StandardCharsets.UTF_8));
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
