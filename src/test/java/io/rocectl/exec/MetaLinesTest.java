package io.rocectl.exec;

import io.rocectl.event.ConsoleReporter;
import io.rocectl.event.Recap;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The folded console (no -v) of meta tasks: one banner and the skipped hosts on one line where
 * Ansible prints the banner for each host (disp_meta_when compares the -v lines with Ansible's);
 * the implicit flush at the end of a section prints nothing; nothing counts in the recap.
 */
class MetaLinesTest {
    @TempDir
    Path tmp;

    @Test
    void foldedMetaLines() throws Exception {
        Path pb = tmp.resolve("meta.yaml");
        Files.writeString(pb, """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - name: flush on m2
                      meta: flush_handlers
                      when: inventory_hostname == 'm2'
                    - meta: noop
                    - name: end play on m2
                      meta: end_play
                      when: inventory_hostname == 'm2'
                    - name: after
                      debug:
                        msg: after
                """);
        List<String> hosts = List.of("m1", "m2", "m3");
        HostInventory inv = new io.rocectl.testing.FixedHosts(hosts);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Recap recap;
        try (ConnectionPool pool = new ConnectionPool(LocalConnection::new)) {
            recap = new PlaybookRunner(inv, ModuleRegistry.builtin(), RunOptions.defaults(),
                    new ConsoleReporter(new PrintStream(out, true, StandardCharsets.UTF_8), 0, false, false, false),
                    new Cancel()).run(new PlaybookLoader(ModuleRegistry.builtin()).load(pb), pool);
        }
        String c = out.toString(StandardCharsets.UTF_8);
        String body = c.substring(0, c.indexOf("PLAY RECAP"));
        assertTrue(body.contains("TASK [flush on m2] ****"), c);
        assertEquals(1, body.split("TASK \\[flush on m2]", -1).length - 1, "one banner, folded: " + c);
        assertTrue(body.contains("\nskipping: [m[1,3]]\n"), c);
        assertTrue(body.contains("TASK [meta] ****"), "an unnamed meta task prints 'meta': " + c);
        // end_play is decided by the first host: false on m1, so the play goes on for every host
        assertTrue(body.contains("TASK [end play on m2] ****************"), c);
        assertTrue(body.contains("\nskipping: [m1]\n"), c);
        assertTrue(body.contains("ok: [m[1-3]]"), "the task after it runs: " + c);
        assertEquals(List.of("flush on m2", "meta", "end play on m2", "after"), banners(body), c);
        recap.stats().forEach((h, s) -> assertEquals(1, s.ok() + s.skipped(), h + ": only 'after' counts"));
    }

    private static List<String> banners(String console) {
        return console.lines().filter(l -> l.startsWith("TASK [")).map(l -> l.substring(6, l.indexOf("] "))).toList();
    }
}
