package io.rocectl.transport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The cheap part of {@code ~/.ssh/config}: {@code Host} blocks with {@code HostName}, {@code User},
 * {@code Port} and {@code IdentityFile}; the first value found for a key wins, as in OpenSSH.
 */
public final class SshConfig {
    private record Block(List<String> patterns, Map<String, List<String>> values) {}

    private final List<Block> blocks;

    private SshConfig(List<Block> blocks) {
        this.blocks = blocks;
    }

    public static SshConfig empty() {
        return new SshConfig(List.of());
    }

    /** Reads the file; a missing or unreadable file is an empty config. */
    public static SshConfig load(Path file) {
        if (file == null || !Files.isReadable(file)) return empty();
        try {
            return parse(Files.readAllLines(file));
        } catch (IOException e) {
            return empty();
        }
    }

    static SshConfig parse(List<String> lines) {
        List<Block> blocks = new ArrayList<>();
        Block cur = new Block(List.of("*"), new HashMap<>());
        blocks.add(cur);
        for (String raw : lines) {
            String l = raw.strip();
            if (l.isEmpty() || l.startsWith("#")) continue;
            String[] kv = l.split("[\\s=]+", 2);
            if (kv.length < 2) continue;
            String key = kv[0].toLowerCase(Locale.ROOT);
            String val = kv[1].strip();
            if (val.length() > 1 && val.startsWith("\"") && val.endsWith("\"")) val = val.substring(1, val.length() - 1);
            if (key.equals("host")) {
                cur = new Block(List.of(val.split("\\s+")), new HashMap<>());
                blocks.add(cur);
            } else if (key.equals("match")) {
                cur = new Block(List.of(), new HashMap<>()); // Match blocks are not evaluated
                blocks.add(cur);
            } else {
                cur.values().computeIfAbsent(key, k -> new ArrayList<>()).add(val);
            }
        }
        return new SshConfig(blocks);
    }

    /** The first value of a key for a host, or null. */
    public String get(String host, String key) {
        List<String> all = all(host, key);
        return all.isEmpty() ? null : all.get(0);
    }

    /** Every value of a key for a host (IdentityFile may repeat), in file order. */
    public List<String> all(String host, String key) {
        List<String> out = new ArrayList<>();
        String k = key.toLowerCase(Locale.ROOT);
        for (Block b : blocks) {
            if (matches(b.patterns(), host) && b.values().containsKey(k)) out.addAll(b.values().get(k));
        }
        return out;
    }

    private static boolean matches(List<String> patterns, String host) {
        boolean any = false;
        for (String p : patterns) {
            boolean neg = p.startsWith("!");
            String g = neg ? p.substring(1) : p;
            if (glob(g).matcher(host).matches()) {
                if (neg) return false;
                any = true;
            }
        }
        return any;
    }

    private static Pattern glob(String g) {
        StringBuilder re = new StringBuilder();
        for (char c : g.toCharArray()) {
            if (c == '*') re.append(".*");
            else if (c == '?') re.append('.');
            else re.append(Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }
}
