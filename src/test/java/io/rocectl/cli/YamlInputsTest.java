package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.fact.FactParseException;
import io.rocectl.fact.NetplanDevices;
import io.rocectl.testing.Await;
import io.rocectl.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every YAML input goes through the one reader: an alias bomb as a playbook, a vars file, an
 * {@code -e @file} or an inventory is exit 5 with {@code file:line}, quickly; invalid UTF-8 and
 * deep nesting carry a line; {@code -e @file} keeps timestamps as strings.
 */
class YamlInputsTest {
    @TempDir
    Path tmp;

    /** Nine levels of nine aliases (81 aliases, 9^9 values expanded); the 7th level overflows. */
    private static String bomb(String indent) {
        StringBuilder sb = new StringBuilder(indent + "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i <= 8; i++) {
            sb.append(indent).append("l").append(i).append(": &l").append(i).append(" [");
            for (int j = 0; j < 9; j++) sb.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
            sb.append("]\n");
        }
        return sb.toString();
    }

    private Path write(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private Path inventory() throws Exception {
        return write("hosts.ini", "[nodes]\nnode01 ansible_host=127.0.0.1 ansible_port=1\n");
    }

    private static Cli.Result refused(String... args) {
        Cli.Result r = assertTimeoutPreemptively(Await.LONG, () -> Cli.run(args));
        assertEquals(5, r.exitCode(), r.out() + r.err());
        return r;
    }

    @Test
    void bombPlaybookIsRefusedWithItsLine() throws Exception {
        Path pb = write("bomb.yaml", "- hosts: all\n  gather_facts: false\n  vars:\n" + bomb("    ")
                + "  tasks:\n    - ping:\n");
        Cli.Result r = refused("run", pb.toString(), "-i", inventory().toString());
        assertTrue(r.err().contains(pb + ":10:"), r.err());
        assertTrue(r.err().contains("alias bomb"), r.err());
    }

    @Test
    void bombVarsFileIsRefusedWithItsLine() throws Exception {
        Path vars = write("vars.yaml", bomb(""));
        Path pb = write("pb.yaml", "- hosts: all\n  gather_facts: false\n  vars_files: [vars.yaml]\n  tasks:\n    - ping:\n");
        Cli.Result r = refused("run", pb.toString(), "-i", inventory().toString());
        assertTrue(r.err().contains(vars + ":7:"), r.err());
    }

    @Test
    void bombExtraVarsFileIsRefusedWithItsLine() throws Exception {
        Path vars = write("extra.yaml", bomb(""));
        Path pb = write("pb.yaml", "- hosts: all\n  gather_facts: false\n  tasks:\n    - ping:\n");
        Cli.Result r = refused("run", pb.toString(), "-i", inventory().toString(), "--extra-vars=@" + vars);
        assertTrue(r.err().contains(vars + ":7:"), r.err());
    }

    @Test
    void bombInventoryAndGroupVarsAreRefusedWithTheirLine() throws Exception {
        Path inv = write("inv.yaml", "all:\n  hosts:\n    node01:\n  vars:\n" + bomb("    "));
        Cli.Result r = refused("inventory", "-i", inv.toString(), "--list");
        assertTrue(r.err().contains(inv + ":11:"), r.err());
        Path dir = Files.createDirectories(tmp.resolve("d/group_vars"));
        Path ini = write("d/hosts.ini", "[nodes]\nnode01\n");
        Path gv = dir.resolve("nodes.yaml");
        Files.writeString(gv, bomb(""));
        Cli.Result g = refused("inventory", "-i", ini.toString(), "--list");
        assertTrue(g.err().contains(gv + ":7:"), g.err());
    }

    @Test
    void invalidUtf8AndDeepNestingInAPlaybookCarryALine() throws Exception {
        Path pb = tmp.resolve("latin1.yaml");
        Files.write(pb, "- hosts: all\n  tasks:\n    - debug: msg=caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Cli.Result r = refused("run", pb.toString(), "-i", inventory().toString());
        assertTrue(r.err().contains(pb + ":3:21: invalid UTF-8"), r.err());
        Path deep = write("deep.yaml", "- hosts: all\n  vars:\n    x: " + "[".repeat(300) + "]".repeat(300) + "\n");
        Cli.Result d = refused("run", deep.toString(), "-i", inventory().toString());
        assertTrue(d.err().contains(deep + ":3:"), d.err());
        assertTrue(d.err().contains("nested more than"), d.err());
    }

    @Test
    void extraVarsFileReadsTimestampsAsPyYamlAndReportsLineAndColumn() throws Exception {
        Path f = write("e.yaml", "day: 2024-01-02\nstamp: 2001-12-14 21:59:43.10 -5\nn: 3\n");
        Map<String, Object> v = ExtraVars.parse(List.of("@" + f));
        assertEquals("2024-01-02", v.get("day").toString());
        assertEquals("2001-12-14 21:59:43.100000-05:00", v.get("stamp").toString(), "Python's str() of the datetime");
        assertEquals(3, v.get("n"));
        Path bad = write("bad.yaml", "a: 1\nb: [1, 2\n");
        InputError e = assertThrows(InputError.class, () -> ExtraVars.parse(List.of("@" + bad)));
        assertTrue(e.line() > 0 && e.column() > 0, e.oneLine());
        Path dup = write("dup.yaml", "a: 1\na: 2\n");
        assertEquals(dup + ":2:1: duplicate key 'a'",
                assertThrows(InputError.class, () -> ExtraVars.parse(List.of("@" + dup))).oneLine());
        Path list = write("list.yaml", "- 1\n");
        assertTrue(assertThrows(InputError.class, () -> ExtraVars.parse(List.of("@" + list))).oneLine()
                .startsWith(list + ":1:1: "));
    }

    @Test
    void bombInAHostsNetplanFileIsRefusedQuickly() {
        String netplan = "network:\n  version: 2\n  ethernets:\n    eth0: {}\n" + bomb("  ");
        FactParseException e = assertTimeoutPreemptively(Await.LONG,
                () -> assertThrows(FactParseException.class, () -> NetplanDevices.parse(netplan)));
        assertTrue(e.getMessage().contains("alias bomb"), e.getMessage());
        assertEquals(1, NetplanDevices.parse("network:\n  ethernets:\n    eth0: {}\n").size());
    }
}
