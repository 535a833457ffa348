package io.rocectl.ack;

import io.rocectl.fs.OwnFiles;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlReader;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The acknowledgement file: YAML, a mapping with one key {@code acks}, a list of entries with the
 * keys {@code cluster}, {@code target} (HOST:NIC or HOST), {@code cause}, {@code reason},
 * {@code added} and {@code expires} (ISO-8601 instants; expires optional). Anything else is bad
 * input, reported as FILE:LINE. A missing file is an empty list.
 */
public final class AckFile {
    private static final String NAME = "[A-Za-z0-9][A-Za-z0-9_.-]{0,63}";
    private static final Set<String> KEYS = Set.of("cluster", "target", "cause", "reason", "added", "expires");

    private AckFile() {}

    /** The entries of {@code file} (empty when it does not exist); {@code causes}: the cause ids an entry may name. */
    public static List<Ack> read(Path file, Set<String> causes) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) return List.of();
        String display = file.toString();
        YamlFile doc = YamlReader.read(file, display);
        YamlNode root = doc.root();
        if (root == null || YamlNode.isNull(root)) return List.of();
        if (!(root instanceof YamlMapping m)) throw doc.error(root, "expected a mapping with the key 'acks'");
        List<Ack> out = new ArrayList<>();
        for (YamlEntry e : m.getValue()) {
            String key = scalar(doc, e.getKeyNode(), "key");
            if (!key.equals("acks")) throw doc.error(e.getKeyNode(), "unknown key '" + key + "' (expected 'acks')");
            YamlNode v = e.getValueNode();
            if (YamlNode.isNull(v)) continue;
            if (!(v instanceof YamlSequence seq)) throw doc.error(v, "'acks' must be a list");
            for (YamlNode item : seq.getValue()) out.add(entry(doc, item, causes));
        }
        return List.copyOf(out);
    }

    private static Ack entry(YamlFile doc, YamlNode item, Set<String> causes) {
        if (!(item instanceof YamlMapping m)) throw doc.error(item, "an acknowledgement must be a mapping (cluster, target, cause, reason)");
        Map<String, YamlNode> v = new LinkedHashMap<>();
        for (YamlEntry e : m.getValue()) {
            String key = scalar(doc, e.getKeyNode(), "key");
            if (!KEYS.contains(key)) {
                throw doc.error(e.getKeyNode(), "unknown key '" + key + "' (expected one of cluster, target, cause, reason, added, expires)");
            }
            v.put(key, e.getValueNode());
        }
        for (String k : List.of("cluster", "target", "cause", "reason")) {
            if (!v.containsKey(k)) throw doc.error(item, "acknowledgement without '" + k + "'");
        }
        String cluster = scalar(doc, v.get("cluster"), "cluster");
        if (!cluster.matches(NAME)) throw doc.error(v.get("cluster"), "'" + cluster + "' is not a cluster name");
        String target = scalar(doc, v.get("target"), "target");
        String[] hn = target(target);
        if (hn == null) throw doc.error(v.get("target"), "'" + target + "' is not HOST:NIC or HOST");
        String cause = scalar(doc, v.get("cause"), "cause");
        if (!causes.contains(cause)) {
            throw doc.error(v.get("cause"), "unknown cause '" + cause + "' (one of " + String.join(", ", causes.stream().sorted().toList()) + ")");
        }
        String reason = scalar(doc, v.get("reason"), "reason");
        if (reason.isBlank()) throw doc.error(v.get("reason"), "the reason is empty");
        Instant added = v.containsKey("added") ? instant(doc, v.get("added")) : null;
        Instant expires = v.containsKey("expires") && !YamlNode.isNull(v.get("expires")) ? instant(doc, v.get("expires")) : null;
        return new Ack(cluster, hn[0], hn[1], cause, reason, added, expires, item.line());
    }

    /** {host, nic} of {@code HOST:NIC}, {host, null} of {@code HOST}, or null when it is neither. */
    public static String[] target(String s) {
        String part = "[A-Za-z0-9][A-Za-z0-9_.-]{0,252}";
        if (s.matches(part)) return new String[] {s, null};
        if (s.matches(part + ":" + "[A-Za-z0-9][A-Za-z0-9_.@-]{0,14}")) {
            int i = s.indexOf(':');
            return new String[] {s.substring(0, i), s.substring(i + 1)};
        }
        return null;
    }

    private static String scalar(YamlFile doc, YamlNode n, String what) {
        if (!(n instanceof YamlScalar s)) throw doc.error(n, "'" + what + "' must be a single value");
        return s.getValue().strip();
    }

    private static Instant instant(YamlFile doc, YamlNode n) {
        String s = scalar(doc, n, "time");
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw doc.error(n, "'" + s + "' is not a time such as 2026-12-01T09:00:00Z");
        }
    }

    /** The file's text for {@code acks} (times to the second, strings quoted). */
    public static String render(List<Ack> acks) {
        StringBuilder sb = new StringBuilder("# rocectl acknowledgements: faults known and waiting for a repair (rocectl ack add/remove/list).\n"
                + "# A fault here does not fail probe/remediate until its cause changes or it expires (docs/operations.md).\n");
        sb.append(acks.isEmpty() ? "acks: []\n" : "acks:\n");
        for (Ack a : acks) {
            sb.append("  - cluster: ").append(quote(a.cluster())).append('\n');
            sb.append("    target: ").append(quote(a.target())).append('\n');
            sb.append("    cause: ").append(quote(a.cause())).append('\n');
            sb.append("    reason: ").append(quote(a.reason())).append('\n');
            if (a.added() != null) sb.append("    added: ").append(quote(a.added().toString())).append('\n');
            if (a.expires() != null) sb.append("    expires: ").append(quote(a.expires().toString())).append('\n');
        }
        return sb.toString();
    }

    /** Writes the file atomically (mode 0644); its directory is created when missing. */
    public static void write(Path file, List<Ack> acks) throws IOException {
        Path abs = file.toAbsolutePath();
        if (abs.getParent() != null) Files.createDirectories(abs.getParent());
        OwnFiles.replace(abs, render(acks), OwnFiles.PUBLIC);
    }

    /** A YAML double-quoted scalar. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') sb.append('\\').append(c);
            else if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02x", (int) c));
            else sb.append(c);
        }
        return sb.append('"').toString();
    }
}
