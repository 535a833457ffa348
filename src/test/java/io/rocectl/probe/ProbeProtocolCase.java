package io.rocectl.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One golden file of the probe's wire protocol ({@code src/test/resources/probe-protocol/NAME.golden},
 * format in {@code docs/probe-protocol.md}): the script's arguments and stdin, the stdout it must
 * print, and the records {@link CheapProbeParser} must read from that stdout. The same files are
 * read by the parser's test ({@link ProbeProtocolGoldenTest}) and by the script's test
 * ({@link ProbeProtocolScriptLabTest}), so the two sides cannot drift apart.
 *
 * @param name   the file's base name
 * @param host   the {@code host} line: the inventory name the parser is given
 * @param args   the script's positional arguments ({@code $1}...), empty for a parser-only case
 * @param stdin  the script's stdin
 * @param stdout the script's stdout
 * @param parsed the records, one per line, in {@link #dump} form
 */
record ProbeProtocolCase(String name, String host, List<String> args, String stdin, String stdout, List<String> parsed) {

    /** Every case listed in {@code probe-protocol/cases.txt}, in its order. */
    static List<ProbeProtocolCase> all() {
        List<ProbeProtocolCase> out = new ArrayList<>();
        for (String line : read("cases.txt").split("\n")) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            out.add(load(line));
        }
        return out;
    }

    /** Whether the script's test runs this case (a parser-only case has no {@code [args]}). */
    boolean runsTheScript() {
        return !args.isEmpty();
    }

    static ProbeProtocolCase load(String name) {
        Map<String, StringBuilder> sections = new LinkedHashMap<>();
        StringBuilder cur = null;
        String host = null;
        int n = 0;
        for (String line : read(name + ".golden").split("\n", -1)) {
            n++;
            if (line.matches("\\[[a-z]+\\]")) {
                cur = new StringBuilder();
                if (sections.put(line.substring(1, line.length() - 1), cur) != null)
                    throw new IllegalStateException(name + ".golden:" + n + ": section repeated: " + line);
            } else if (cur != null) {
                cur.append(line).append('\n');
            } else if (line.startsWith("host ")) {
                host = line.substring(5).strip();
            } else if (!line.isBlank() && !line.startsWith("#")) {
                throw new IllegalStateException(name + ".golden:" + n + ": expected a comment, 'host NAME' or a section: " + line);
            }
        }
        for (String s : sections.keySet())
            if (!List.of("args", "stdin", "stdout", "parsed").contains(s))
                throw new IllegalStateException(name + ".golden: unknown section [" + s + "]");
        if (host == null || !sections.containsKey("stdout") || !sections.containsKey("parsed"))
            throw new IllegalStateException(name + ".golden: needs 'host NAME', [stdout] and [parsed]");
        String args = text(sections.get("args")).strip();
        return new ProbeProtocolCase(name, host, args.isEmpty() ? List.of() : List.of(args.split(" +")),
                text(sections.get("stdin")), text(sections.get("stdout")),
                text(sections.get("parsed")).lines().filter(l -> !l.isBlank()).toList());
    }

    /** A section's text without the blank lines that end it. */
    private static String text(StringBuilder sb) {
        if (sb == null) return "";
        String s = sb.toString();
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '\n') end--;
        return end == 0 ? "" : s.substring(0, end) + "\n";
    }

    private static String read(String file) {
        try (InputStream in = ProbeProtocolCase.class.getResourceAsStream("/probe-protocol/" + file)) {
            if (in == null) throw new IllegalStateException("probe-protocol/" + file + " not on the test class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The records of a parsed output, one line each: {@code host FULLS}, {@code link NIC STATE},
     * {@code arp_ignore NIC N}, {@code pair ...} (every field of {@link PairResult}) and
     * {@code tally NIC JUDGED CLEAN PINGS}; links, sysctls and tallies sorted by NIC.
     */
    static List<String> dump(CheapProbeOutput out) {
        List<String> lines = new ArrayList<>();
        lines.add("host " + out.host().arpTableFulls());
        new TreeSet<>(out.host().links().keySet()).forEach(n -> lines.add("link " + n + " " + out.host().links().get(n)));
        new TreeSet<>(out.host().arpIgnore().keySet()).forEach(n -> lines.add("arp_ignore " + n + " " + out.host().arpIgnore().get(n)));
        for (PairResult p : out.pairs()) {
            String arp = p.arpMacs() == null ? "na" : p.arpMacs().isEmpty() ? "none" : new TreeSet<>(p.arpMacs()).stream().collect(Collectors.joining(","));
            String ping = p.pinged() ? p.pingSent() + "/" + p.pingReceived() : "na";
            String neigh = p.neighMac() == null ? "na" : p.neighMac() + "@" + (p.neighState() == null ? "none" : p.neighState());
            String mtu = p.mtuSize() < 0 ? "na" : p.mtuSize() + ":" + (p.mtuOk() == null ? "unjudged" : p.mtuOk() ? "ok" : "lost");
            lines.add("pair " + p.srcNic() + " " + p.srcIp() + " " + p.dstIp() + " link=" + (p.srcLink() == null ? "na" : p.srcLink())
                    + " route=" + (p.routeDev() == null ? "na" : p.routeDev()) + "/" + (p.routeTable() == null ? "na" : p.routeTable())
                    + " arp=" + arp + " ping=" + ping + " neigh=" + neigh + " mtu=" + mtu);
        }
        new TreeSet<>(out.tallies().keySet()).forEach(n -> {
            SourceTally t = out.tallies().get(n);
            lines.add("tally " + n + " " + t.judged() + " " + t.clean() + " " + t.pingsPerClean());
        });
        return lines;
    }
}
