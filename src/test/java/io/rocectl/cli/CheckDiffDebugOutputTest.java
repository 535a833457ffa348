package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console of {@code rocectl run} as an Ansible user reads it, through the real CLI against
 * three in-process MINA hosts: {@code -C} says what WOULD change and changes nothing, {@code -D}
 * prints each distinct diff once for the hosts that share it, {@code debug} prints its message at
 * verbosity 0 folded across hosts (and once per distinct message at -v), and {@code verbosity:}
 * skips a debug task below it.
 */
class CheckDiffDebugOutputTest {
    @TempDir static Path tmp;
    static MinaHosts hosts;
    static Path inv;

    @BeforeAll
    static void up() throws Exception {
        hosts = new MinaHosts(Files.createDirectories(tmp.resolve("mina")), 3);
        inv = hosts.inventory("");
    }

    @AfterAll
    static void down() throws Exception {
        if (hosts != null) hosts.close();
    }

    private static Map<String, String> snapshot(Path root) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.toList()) {
                files.put(root.relativize(p).toString(), Files.isRegularFile(p) ? Files.readString(p) : "<dir>");
            }
        }
        return files;
    }

    @Test
    void checkModeSaysWouldForEveryChangeAndTouchesNoFile() throws Exception {
        for (String h : hosts.names()) {
            Files.writeString(hosts.home(h).resolve("app.conf"), "a=1\n");
            Files.writeString(hosts.home(h).resolve("99-test.conf"), "net.ipv4.conf.all.arp_ignore = 0\n");
            Files.writeString(hosts.home(h).resolve("nccl.conf"),
                    "# NCCL settings; rocectl (nccl_env) manages the NCCL_ keys it sets.\nNCCL_IB_GID_INDEX=3\n");
        }
        Path pb = Files.writeString(tmp.resolve("check.yml"), """
                - hosts: nodes
                  gather_facts: false
                  vars:
                    roce_nics: []
                    roce_confirm_remove: true
                  tasks:
                    - name: new file
                      copy:
                        content: "x\\n"
                        dest: "{{ host_dir }}/new.conf"
                    - name: existing file
                      copy:
                        content: "changed\\n"
                        dest: "{{ host_dir }}/app.conf"
                    - name: a line
                      lineinfile:
                        path: "{{ host_dir }}/app.conf"
                        line: b=2
                    - name: a directory
                      file:
                        path: "{{ host_dir }}/sub"
                        state: directory
                    - name: a sysctl
                      sysctl:
                        name: net.ipv4.conf.all.arp_ignore
                        value: 1
                        sysctl_file: "{{ host_dir }}/99-test.conf"
                        reload: false
                    - name: rocectl's NCCL keys go
                      nccl_env:
                        path: "{{ host_dir }}/nccl.conf"
                """);
        Map<String, String> before = snapshot(hosts.dir().resolve("hosts"));
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-C");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals(before, snapshot(hosts.dir().resolve("hosts")), "check mode wrote nothing:\n" + r.out());
        List<String> changed = r.out().lines().filter(l -> l.startsWith("changed: ")).toList();
        assertEquals(5 * 3 + 1, changed.size(), "each host's change (paths differ), the identical sysctl one folded:\n" + r.out());
        for (String l : changed) assertTrue(l.contains("] => would "), "says what it would do: " + l);
        String h = hosts.home("node01").toString();
        for (String want : List.of("=> would create " + h + "/new.conf", "=> would write " + h + "/app.conf (content changed)",
                "=> would edit " + h + "/app.conf: line added", "=> would create directory " + h + "/sub",
                "=> would set net.ipv4.conf.all.arp_ignore = 1 (file)",
                "=> would remove " + h + "/nccl.conf (it held only rocectl's keys)")) {
            assertTrue(r.out().contains(want), want + " in:\n" + r.out());
        }
        assertFalse(r.out().matches("(?s).*\\b(wrote|created|removed) .*"), "no past tense:\n" + r.out());
    }

    @Test
    void diffModePrintsEachDistinctDiffOnceUnderItsHosts() throws Exception {
        Path shared = Files.writeString(tmp.resolve("shared.conf"), "a=1\n");
        Path pb = Files.writeString(tmp.resolve("diff.yml"), """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - name: a line per host
                      lineinfile:
                        path: "%s"
                        line: "{{ 'b=3' if inventory_hostname == 'node03' else 'b=2' }}"
                """.formatted(shared));
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-C", "-D");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        List<String> heads = r.out().lines().filter(l -> l.startsWith("--- diff for ")).toList();
        assertEquals(List.of("--- diff for node[01-02] (2 hosts) ---", "--- diff for node03 ---"), heads, r.out());
        assertEquals(1, count(r.out(), "\n+b=2\n"), r.out());
        assertEquals(1, count(r.out(), "\n+b=3\n"), r.out());
        assertEquals("a=1\n", Files.readString(shared));

        Cli.Result v = Cli.run("run", pb.toString(), "-i", inv.toString(), "-C", "-D", "-v");
        assertTrue(v.out().contains("--- diff for node01, node02 (2 hosts) ---\n"), v.out());
        assertEquals(1, count(v.out(), "\n+b=2\n"), "folded at -v too:\n" + v.out());
    }

    static final String DEBUG = """
            - hosts: nodes
              gather_facts: false
              tasks:
                - name: same everywhere
                  debug:
                    msg: "hello {{ 'world' }}"
                - name: one differs
                  debug:
                    msg: "{{ 'odd' if inventory_hostname == 'node03' else ['a', 'b'] }}"
                - name: a var
                  debug:
                    var: inventory_hostname | length
                - name: only with -v
                  debug:
                    msg: detail
                    verbosity: 1
            """;

    @Test
    void debugPrintsItsMessageAtVerbosityZeroFoldedAcrossHosts() throws Exception {
        Path pb = Files.writeString(tmp.resolve("debug.yml"), DEBUG);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        String out = r.out();
        assertTrue(out.contains("TASK [same everywhere] ***"), out);
        assertTrue(out.contains("\nok: [node[01-03]] => {\n    \"msg\": \"hello world\"\n}\n"), out);
        assertTrue(out.contains("\nok: [node[01-02]] => {\n    \"msg\": [\n        \"a\",\n        \"b\"\n    ]\n}\n"
                + "ok: [node03] => {\n    \"msg\": \"odd\"\n}\n"), out);
        assertTrue(out.contains("\nok: [node[01-03]] => {\n    \"inventory_hostname | length\": \"6\"\n}\n"), out);
        assertTrue(out.contains("TASK [only with -v] ***"), out);
        assertTrue(out.contains("\nskipping: [node[01-03]]\n"), out);
        assertFalse(out.contains("detail"), out);
        assertTrue(out.matches("(?s).*node\\[01-03] +: ok=3 +changed=0 +unreachable=0 +failed=0 +skipped=1.*"), out);
    }

    @Test
    void debugAtVerboseNamesEveryHostAndPrintsEachDistinctMessageOnce() throws Exception {
        Path pb = Files.writeString(tmp.resolve("debug-v.yml"), DEBUG);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-v");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        String out = r.out();
        assertTrue(out.contains("\nok: [node01] => {\n    \"msg\": \"hello world\"\n}\n"
                + "ok: [node02] => (same as node01)\nok: [node03] => (same as node01)\n"), out);
        assertTrue(out.contains("ok: [node02] => (same as node01)\nok: [node03] => {\n    \"msg\": \"odd\"\n}\n"), out);
        assertTrue(out.contains("\nok: [node01] => {\n    \"msg\": \"detail\"\n}\n"), "verbosity: 1 runs at -v:\n" + out);
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) n++;
        return n;
    }
}
