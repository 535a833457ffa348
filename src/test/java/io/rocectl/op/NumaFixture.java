package io.rocectl.op;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real NUMA node tree under {@code fixtures/real/numa-nodes} (node_exporter; see its
 * SOURCE.md) as {@code rdma_limits} facts: each node's huge page count is its real
 * {@code Node N HugePages_Total}, offered in 2048 kB and 1048576 kB sizes.
 */
public final class NumaFixture {
    private static final Pattern TOTAL = Pattern.compile("(?m)^Node (\\d+) HugePages_Total:\\s+(\\d+)$");

    private NumaFixture() {}

    public static Path dir() {
        try {
            return Path.of(NumaFixture.class.getResource("/fixtures/real/numa-nodes/sys/devices/system/node").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** node -> (page size kB -> count), read from the real meminfo files. */
    public static Map<Integer, Map<Long, Long>> nodes() {
        Map<Integer, Map<Long, Long>> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir())) {
            for (Path d : s.filter(p -> p.getFileName().toString().matches("node\\d+")).toList()) {
                Matcher m = TOTAL.matcher(Files.readString(d.resolve("meminfo")));
                if (!m.find() || !d.getFileName().toString().equals("node" + m.group(1))) {
                    throw new IllegalStateException("no HugePages_Total of " + d);
                }
                long total = Long.parseLong(m.group(2));
                out.put(Integer.parseInt(m.group(1)), new TreeMap<>(Map.of(2048L, total, 1048576L, total)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
