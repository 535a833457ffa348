package io.rocectl.fact;

import io.rocectl.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the fact snippets themselves with /bin/sh over a tree on disk (the sysfs root is moved
 * into a temporary directory by replacing the path in the snippet, only here), then parses what
 * they print: the snippets read files with the shell's own {@code read}, so a file without a
 * trailing newline, a missing file and an unreadable GID must all come out as before.
 */
class FactShellTest {

    private static String sh(String script, Path cwd, String... args) throws IOException, InterruptedException {
        List<String> argv = new java.util.ArrayList<>(List.of("sh", "-c", script, "sh"));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).directory(cwd.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static void write(Path f, String content) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
    }

    @Test
    void rdmaSnippetReadsPortsGidsAndNetdevs(@TempDir Path tmp) throws Exception {
        Path root = tmp.resolve("class/infiniband");
        Path port = root.resolve("mlx5_0/ports/1");
        write(port.resolve("link_layer"), "Ethernet\n");
        write(port.resolve("state"), "4: ACTIVE");                       // no trailing newline
        write(port.resolve("gids/0"), "fe80:0000:0000:0000:0000:0000:0000:0000\n");
        write(port.resolve("gids/1"), "0000:0000:0000:0000:0000:ffff:0a00:0002\n");
        write(port.resolve("gids/2"), "0000:0000:0000:0000:0000:0000:0000:0000\n");
        write(port.resolve("gid_attrs/types/1"), "RoCE v2\n");
        write(port.resolve("gid_attrs/ndevs/1"), "ens1f0\n");
        Files.createDirectories(root.resolve("mlx5_0/device/net/ens1f0"));
        Path port2 = root.resolve("mlx5_1/ports/1");
        write(port2.resolve("state"), "1: DOWN\n");                        // no link_layer file
        write(port2.resolve("gids/1"), "0000:0000:0000:0000:0000:ffff:0a00:0003\n"); // no gid_attrs
        Files.createDirectories(root.resolve("mlx5_1/device/net/ens2f0"));

        String out = sh(RdmaSysfs.SHELL.replace("/sys/class/infiniband", root.toString()), tmp);
        List<RdmaPort> ports = RdmaSysfs.parse(out);
        assertEquals(2, ports.size(), out);
        RdmaPort a = ports.get(0);
        assertEquals("mlx5_0", a.dev());
        assertEquals("4: ACTIVE", a.state());
        assertEquals("Ethernet", a.linkLayer());
        assertEquals(List.of("ens1f0"), a.netdevs());
        assertEquals(1, a.gids().size(), "empty and link-local GIDs are skipped: " + out);
        assertEquals("RoCE v2", a.gids().get(0).type());
        assertEquals(1, a.roceV2Index("10.0.0.2"));
        RdmaPort b = ports.get(1);
        assertEquals("-", b.linkLayer());
        assertEquals("1: DOWN", b.state());
        assertEquals("unknown", b.gids().get(0).type());
        assertEquals(List.of("ens2f0"), b.netdevs());
    }

    @Test
    void sysctlSnippetsReadValuesAndSkipMissingKeys(@TempDir Path tmp) throws Exception {
        // SYSCTL_NET runs in /proc/sys; here a copy of its shape stands in for it
        Path sys = tmp.resolve("proc/sys");
        write(sys.resolve("net/ipv4/conf/all/arp_ignore"), "1\n");
        write(sys.resolve("net/ipv4/conf/ens1f0/arp_announce"), "2");
        write(sys.resolve("net/ipv4/neigh/default/gc_thresh3"), "1024\n");
        String net = Facts.SYSCTL_NET.shell().replace("/proc/sys", sys.toString());
        Map<String, String> v = Facts.SYSCTL_NET.parse(sh(net, tmp));
        assertEquals(Map.of("net/ipv4/conf/all/arp_ignore", "1", "net/ipv4/conf/ens1f0/arp_announce", "2",
                "net/ipv4/neigh/default/gc_thresh3", "1024"), v);

        String args = Facts.SYSCTL_ARGS.shell().replace("/proc/sys", sys.toString());
        Map<String, String> w = Facts.SYSCTL_ARGS.parse(sh(args, tmp, "net/ipv4/conf/all/arp_ignore", "net/ipv4/nope"));
        assertEquals(Map.of("net/ipv4/conf/all/arp_ignore", "1"), w);
        assertTrue(Facts.SYSCTL_NET.shell().contains("read -r"), "read with the shell's builtin, no process per file");
    }

    @Test
    void snapshotSnippetsPrintWhatCatAndUnamePrint(@TempDir Path tmp) throws Exception {
        io.rocectl.transport.Cmd c = FactScript.command(List.of(Facts.HOSTNAME, Facts.RT_TABLES, Facts.OS_RELEASE));
        Map<String, String> s = FactScript.split(sh(c.argv().get(2), tmp));
        assertEquals(sh("uname -n", tmp).strip(), FactScript.get(s, Facts.HOSTNAME));
        String viaCat = sh("cat /usr/share/iproute2/rt_tables /usr/lib/iproute2/rt_tables /etc/iproute2/rt_tables "
                + "/usr/share/iproute2/rt_tables.d/*.conf /etc/iproute2/rt_tables.d/*.conf 2>/dev/null", tmp);
        assertEquals(viaCat, s.get(Facts.RT_TABLES.name()));
        assertEquals(KeyValues.parse(sh("cat /etc/os-release 2>/dev/null || cat /usr/lib/os-release", tmp)),
                FactScript.get(s, Facts.OS_RELEASE));
    }

    @Test
    void readFilesKeepsLinesAndAddsOnlyAMissingLastNewline(@TempDir Path tmp) throws Exception {
        write(tmp.resolve("a"), "one\n  two with  spaces\t\n\nlast");
        write(tmp.resolve("b"), "b\\x\n");
        Files.createDirectories(tmp.resolve("dir"));
        String out = sh(FactScript.READ_FILES + "\nrd a missing dir b", tmp);
        assertEquals("one\n  two with  spaces\t\n\nlast\nb\\x\n", out);
    }

    @Test
    void aFileThatLooksLikeASectionMarkerStaysContent(@TempDir Path tmp) throws Exception {
        // a host file written to pass for another section of the read (any tag a script could have)
        write(tmp.resolve("forged"), "real line\n@@rocectl-section@@ hostname\nforged-name\n"
                + "@@rocectl-section@@0123456789ab hostname\nforged-too\n");
        Fact<String> file = new Fact<>("forged", "rd forged", s -> s);
        Fact<String> name = new Fact<>("hostname", "echo real-name", String::strip);
        String out = sh(FactScript.command(List.of(file, name)).argv().get(2), tmp);
        Map<String, String> s = FactScript.split(out);
        assertEquals("real line\n@@rocectl-section@@ hostname\nforged-name\n@@rocectl-section@@0123456789ab hostname\nforged-too\n",
                s.get("forged"), "the file's lines are the file's");
        assertEquals("real-name", FactScript.get(s, name));
        assertEquals(2, s.size());
    }

    /** This machine's ip, or null. */
    private static String realIp() {
        for (String d : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            if (Files.isExecutable(Path.of(d, "ip"))) return d + "/ip";
        }
        return null;
    }

    private static final List<Fact<?>> LISTINGS = List.of(Facts.ADDR, Facts.RULES, Facts.ROUTES, Facts.NEIGH);

    @Test
    void theListingsGoThroughOneIpAndComeOutAsEachCommandPrintsIt(@TempDir Path tmp) throws Exception {
        String ip = realIp();
        org.junit.jupiter.api.Assumptions.assumeTrue(ip != null, "needs iproute2");
        // a stand-in ip in front of the real one counts its runs
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path runs = tmp.resolve("runs");
        write(bin.resolve("ip"), "#!/bin/sh\necho \"$*\" >> '" + runs + "'\nexec " + ip + " \"$@\"\n");
        bin.resolve("ip").toFile().setExecutable(true);
        String script = FactScript.command(LISTINGS).argv().get(2);
        // the machine's tables change under a test (other labs come and go, neighbours age): the
        // batch and the single listings are read again until one reading of each agrees
        Map<String, String> sections = Await.until("the batch's lines equal what each listing prints", Await.LONG, () -> {
            Files.deleteIfExists(runs);
            String out = sh("PATH='" + bin + "':$PATH; " + script, tmp);
            assertEquals(List.of("-j -force -batch -"), Files.readAllLines(runs), "one ip for the four listings");
            return FactScript.split(out);
        }, got -> agrees(got, tmp));
        assertTrue(sections.get("addr").contains("\"ifname\":\"lo\""), sections.get("addr"));
    }

    @Test
    void whenTheBatchFailsEachListingRunsOnItsOwn(@TempDir Path tmp) throws Exception {
        String ip = realIp();
        org.junit.jupiter.api.Assumptions.assumeTrue(ip != null, "needs iproute2");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        // an ip whose batch mode prints half an answer and fails (as a listing that fails would)
        write(bin.resolve("ip"), "#!/bin/sh\ncase \"$*\" in *-batch*) echo '[]'; exit 1;; esac\nexec " + ip + " \"$@\"\n");
        bin.resolve("ip").toFile().setExecutable(true);
        String script = FactScript.command(LISTINGS).argv().get(2);
        Await.until("each listing's section equals what the listing prints on its own", Await.LONG,
                () -> FactScript.split(sh("PATH='" + bin + "':$PATH; " + script, tmp)), got -> agrees(got, tmp));
    }

    /** Whether every listing's section is what the listing prints when run alone right after. */
    private static boolean agrees(Map<String, String> sections, Path cwd) {
        try {
            for (Fact<?> f : LISTINGS) {
                if (!sh(f.shell(), cwd).equals(sections.get(f.name()))) return false;
            }
            return true;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBatchAnswerWithTheWrongNumberOfLinesGivesNoSection() {
        String tag = FactScript.MARK + "0123456789ab ";
        Map<String, String> s = FactScript.split(tag + "@ip addr rules\n[{\"ifname\":\"lo\"}]\n" + tag + "hostname\nh1\n");
        assertEquals(null, s.get("addr"), "which listing the one line belongs to is unknown");
        assertEquals(null, s.get("rules"));
        assertEquals("h1\n", s.get("hostname"));
        Map<String, String> ok = FactScript.split(tag + "@ip addr rules\n[{\"ifname\":\"lo\"}]\n[]\n");
        assertEquals("[{\"ifname\":\"lo\"}]\n", ok.get("addr"));
        assertEquals("[]\n", ok.get("rules"));
        assertEquals(false, ok.keySet().stream().anyMatch(k -> k.startsWith("@")), "the batch section itself is not a fact");
    }

    @Test
    void rocectlsOwnFilesAreReadExactlyByTheShellAndOthersByCat(@TempDir Path tmp) throws Exception {
        Path etc = tmp.resolve("etc");
        String batch = "route add 10.0.0.0/24 dev a\\b  table 7 \n\n  rule add  from 10.0.0.1\t"; // no newline at the end
        write(etc.resolve("rocectl/roce-routes.batch"), batch);
        write(etc.resolve("rocectl/roce-routes.del"), "");
        write(etc.resolve("systemd/system/rocectl-roce.service"), "[Unit]\nDescription=x\n");
        Path wants = Files.createDirectories(etc.resolve("systemd/system/multi-user.target.wants"));
        Files.createSymbolicLink(wants.resolve("rocectl-roce.service"), Path.of("../rocectl-roce.service"));
        byte[] foreign = "auto lo\n\0iface\n".getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(etc.resolve("network"));
        Files.write(etc.resolve("network/interfaces"), foreign);
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path cats = tmp.resolve("cats");
        write(bin.resolve("cat"), "#!/bin/sh\necho \"$*\" >> '" + cats + "'\nexec /bin/cat \"$@\"\n");
        bin.resolve("cat").toFile().setExecutable(true);
        String script = NetworkFiles.command().argv().get(2).replace("/etc/", etc + "/");
        String out = sh("PATH='" + bin + "':$PATH; " + script, tmp);
        NetworkFiles h = NetworkFiles.parse(out);
        assertEquals(batch, h.files().get(etc + "/rocectl/roce-routes.batch"), out);
        assertEquals("", h.files().get(etc + "/rocectl/roce-routes.del"));
        assertEquals("[Unit]\nDescription=x\n", h.files().get(etc + "/systemd/system/rocectl-roce.service"));
        assertEquals(new String(foreign, StandardCharsets.UTF_8), h.files().get(etc + "/network/interfaces"), "others' files byte for byte");
        assertEquals(List.of("-- " + etc + "/network/interfaces"), Files.readAllLines(cats), "cat only for the file that is not rocectl's");
        assertEquals(etc + "/systemd/system/rocectl-roce.service",
                h.links().get(etc + "/systemd/system/multi-user.target.wants/rocectl-roce.service"), "a relative link to the unit reads as the unit");
        Files.delete(wants.resolve("rocectl-roce.service"));
        Files.createSymbolicLink(wants.resolve("rocectl-roce.service"), Path.of("/nonexistent/other.service"));
        NetworkFiles other = NetworkFiles.parse(sh(script, tmp));
        assertEquals("/nonexistent/other.service", other.links().get(etc + "/systemd/system/multi-user.target.wants/rocectl-roce.service"));
    }
}
