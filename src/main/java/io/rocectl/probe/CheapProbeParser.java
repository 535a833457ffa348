package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses the stdout of {@link CheapProbeScript} into records. Unknown lines are ignored. The protocol is
 * written down once, in {@code docs/probe-protocol.md}, with golden files in
 * {@code src/test/resources/probe-protocol/} that this parser's test and the script's test both read.
 */
public final class CheapProbeParser {
    private static final java.util.regex.Pattern WS = java.util.regex.Pattern.compile("\\s+");

    /**
     * Don't-fragment echoes that must all go unanswered for an MTU verdict (the script sends one,
     * then three more to a silent target, as ordinary pings are retried).
     */
    public static final int MTU_EVIDENCE = 3;

    private CheapProbeParser() {}

    /**
     * @param host   inventory name of the host the script ran on
     * @param stdout the script's standard output
     * @throws IllegalArgumentException on a malformed H, S, P or C line (names the line)
     */
    public static CheapProbeOutput parse(String host, String stdout) {
        long fulls = -1;
        Map<String, LinkState> links = new LinkedHashMap<>();
        Map<String, Integer> arpIgnore = new LinkedHashMap<>();
        List<PairResult> pairs = new ArrayList<>();
        Map<String, SourceTally> tallies = new LinkedHashMap<>();
        // result lines repeat the same few NIC names, addresses, link and neighbour states: one copy each
        Map<String, String> tokens = new java.util.HashMap<>();
        int lineNo = 0;
        for (String line : stdout.split("\n")) {
            lineNo++;
            String[] f = WS.split(line.trim());
            try {
                switch (f[0]) {
                    case "H" -> {
                        links.clear();
                        fulls = Long.parseLong(f[1]);
                        for (int i = 2; i < f.length; i++) {
                            int eq = f[i].indexOf('=');
                            links.put(f[i].substring(0, eq), LinkState.parse(f[i].substring(eq + 1)));
                        }
                    }
                    case "S" -> {
                        for (int i = 1; i < f.length; i++) {
                            int eq = f[i].indexOf('=');
                            arpIgnore.put(f[i].substring(0, eq), Integer.parseInt(f[i].substring(eq + 1)));
                        }
                    }
                    case "P" -> {
                        if (f.length < 9 || f.length > 11) throw new IllegalArgumentException("expected 9 to 11 fields");
                        pairs.add(pair(f, tokens));
                    }
                    case "C" -> {
                        if (f.length != 5) throw new IllegalArgumentException("expected 5 fields");
                        tallies.put(f[1], new SourceTally(Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                                Integer.parseInt(f[4])));
                    }
                    default -> { }
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(host + ": probe output line " + lineNo + ": " + e.getMessage()
                        + ": " + line, e);
            }
        }
        return new CheapProbeOutput(new HostState(host, fulls, links, arpIgnore), pairs, tallies);
    }

    private static PairResult pair(String[] f, Map<String, String> tokens) {
        for (int i = 1; i < f.length; i++) {
            String t = tokens.putIfAbsent(f[i], f[i]);
            if (t != null) f[i] = t;
        }
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
        String neighMac = null, neighState = null;
        if (f.length >= 10 && !f[9].equals("na")) {
            int at = f[9].indexOf('@');
            neighMac = one(tokens, (at < 0 ? f[9] : f[9].substring(0, at)).toLowerCase(Locale.ROOT));
            neighState = at < 0 ? null : one(tokens, f[9].substring(at + 1));
        }
        int mtuSize = -1;
        Boolean mtuOk = null;
        if (f.length == 11 && !f[10].equals("na")) {
            int colon = f[10].indexOf(':');
            mtuSize = Integer.parseInt(f[10].substring(0, colon));
            mtuOk = mtuVerdict(f[10].substring(colon + 1));
        }
        return new PairResult(f[1], f[2], f[3], LinkState.parse(f[4]), na(f[5]), na(f[6]), macs, sent, recv,
                neighMac, neighState, mtuSize, mtuOk);
    }

    /**
     * The don't-fragment verdict of a result: {@code ok} answered; {@code 0/SENT} none of SENT
     * answered, a verdict only when SENT is at least {@link #MTU_EVIDENCE} (one lost echo is loss,
     * not evidence of an MTU problem), else null (not judged); {@code -} (older scripts, which
     * retried) unanswered.
     */
    static Boolean mtuVerdict(String v) {
        if (v.equals("ok")) return Boolean.TRUE;
        if (v.equals("-")) return Boolean.FALSE;
        int slash = v.indexOf('/');
        if (slash < 0) throw new IllegalArgumentException("bad don't-fragment result '" + v + "'");
        int recv = Integer.parseInt(v.substring(0, slash)), sent = Integer.parseInt(v.substring(slash + 1));
        if (recv > 0) return Boolean.TRUE;
        return sent >= MTU_EVIDENCE ? Boolean.FALSE : null;
    }

    private static String one(Map<String, String> tokens, String s) {
        String t = tokens.putIfAbsent(s, s);
        return t == null ? s : t;
    }

    private static String na(String s) {
        return s.equals("na") ? null : s;
    }
}
