package io.rocectl.op;

import io.rocectl.fact.NetSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds snapshots from the captured outputs under {@code src/test/resources/fixtures/roce}. */
public final class RoceFixtures {
    public static final Path DIR = Path.of("src/test/resources/fixtures/roce");
    static final String MARK = "@@rocectl-section@@ ";
    static final String RT_BASE = "255\tlocal\n254\tmain\n253\tdefault\n0\tunspec\n";

    private RoceFixtures() {}

    public static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The host kind of a case dir ("8nic" unless a {@code host} file says otherwise). */
    public static String host(Path caseDir) {
        String h = read(caseDir.resolve("host"));
        return h == null ? "8nic" : h.strip();
    }

    public static String ssh(String host) {
        return host.equals("8nic") ? "10.10.1.200 52144 10.10.1.11 22" : "10.20.0.250 40022 10.20.0.5 22";
    }

    /** The stdout the gather script would print for this case. */
    public static String gatherOutput(String host, String rules, String routes, String rocectlConf, String ssh) {
        StringBuilder sb = new StringBuilder();
        section(sb, "hostname", host.equals("8nic") ? "gpu01" : "node7");
        section(sb, "addr", read(DIR.resolve("addr-" + host + ".json")));
        section(sb, "rt_tables", RT_BASE + (rocectlConf == null ? "" : rocectlConf));
        section(sb, "rules", rules == null ? "" : rules);
        section(sb, "routes", routes == null ? "" : routes);
        section(sb, "rdma", read(DIR.resolve("rdma-" + host + ".txt")));
        section(sb, "ssh", ssh == null ? "" : ssh);
        section(sb, "rocectl_rt_tables", rocectlConf == null ? "" : "present\n" + rocectlConf);
        return sb.toString();
    }

    public static NetSnapshot snapshot(Path caseDir) {
        String host = host(caseDir);
        return NetSnapshot.parse(gatherOutput(host, read(caseDir.resolve("rules.json")),
                read(caseDir.resolve("routes.json")), read(caseDir.resolve("rocectl.conf")), ssh(host)));
    }

    public static NetSnapshot snapshot(String host) {
        return NetSnapshot.parse(gatherOutput(host, null, null, null, ssh(host)));
    }

    private static void section(StringBuilder sb, String name, String body) {
        sb.append(MARK).append(name).append('\n');
        if (!body.isEmpty()) sb.append(body.endsWith("\n") ? body : body + "\n");
    }
}
