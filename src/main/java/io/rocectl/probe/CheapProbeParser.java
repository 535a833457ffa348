package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Parses the stdout of {@link CheapProbeScript} into records. Unknown lines are ignored. */
public final class CheapProbeParser {
    private CheapProbeParser() {}

    /**
     * @param host   inventory name of the host the script ran on
     * @param stdout the script's standard output
     * @throws IllegalArgumentException on a malformed H or P line (names the line)
     */
    public static CheapProbeOutput parse(String host, String stdout) {
        HostState hs = new HostState(host, -1, Map.of());
        List<PairResult> pairs = new ArrayList<>();
        int lineNo = 0;
        for (String line : stdout.split("\n")) {
            lineNo++;
            String[] f = line.trim().split("\\s+");
            try {
                if (f[0].equals("H")) {
                    Map<String, LinkState> links = new LinkedHashMap<>();
                    for (int i = 2; i < f.length; i++) {
                        int eq = f[i].indexOf('=');
                        links.put(f[i].substring(0, eq), LinkState.parse(f[i].substring(eq + 1)));
                    }
                    hs = new HostState(host, Long.parseLong(f[1]), links);
                } else if (f[0].equals("P")) {
                    if (f.length != 9) throw new IllegalArgumentException("expected 9 fields");
                    pairs.add(pair(f));
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(host + ": probe output line " + lineNo + ": " + e.getMessage()
                        + ": " + line, e);
            }
        }
        return new CheapProbeOutput(hs, pairs);
    }

    private static PairResult pair(String[] f) {
        Set<String> macs = switch (f[7]) {
            case "na" -> null;
            case "-" -> Set.of();
            default -> new LinkedHashSet<>(Arrays.asList(f[7].split(",")));
        };
        int sent = -1, recv = -1;
        if (!f[8].equals("na")) {
            String[] sr = f[8].split("/");
            sent = Integer.parseInt(sr[0]);
            recv = Integer.parseInt(sr[1]);
        }
        return new PairResult(f[1], f[2], f[3], LinkState.parse(f[4]), na(f[5]), na(f[6]), macs, sent, recv);
    }

    private static String na(String s) {
        return s.equals("na") ? null : s;
    }
}
