package io.rocectl.exec;

import io.rocectl.event.ConsoleReporter;
import io.rocectl.inventory.HostPattern;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A delegated task's console line names the delegate, and its address when the delegate is
 * reached at another one. The per-host lines (-v) are what ansible-playbook 2.14.18 printed for
 * this playbook and inventory ({@code ansible-playbook -i inv.ini -c local pb.yaml}, the default
 * callback's host_label: "h1 -> h2(127.0.0.1)"); the default, folded output folds the hosts that
 * ran on the same delegate.
 */
class DelegatedLinesTest {
    @TempDir
    Path tmp;

    private static final String INVENTORY = """
            [nodes]
            h1
            h2 ansible_host=127.0.0.1
            h3 ansible_host=h3
            h4
            """;

    private static final String PLAYBOOK = """
            - hosts: nodes
              gather_facts: false
              tasks:
                - name: to a host with an address
                  debug: {msg: x}
                  delegate_to: "{{ 'h' ~ '2' }}"
                - name: to a host whose address is its name
                  debug: {msg: x}
                  delegate_to: h3
                  when: inventory_hostname == 'h1'
                - name: per item
                  debug: {msg: x}
                  delegate_to: "{{ item }}"
                  loop: [h1, h2, localhost]
                  when: inventory_hostname == 'h1'
                - name: failing per item
                  command: "false"
                  delegate_to: "{{ item }}"
                  loop: [h2, h1]
                  ignore_errors: true
                  when: inventory_hostname == 'h1'
            """;

    private String run(int verbosity) throws Exception {
        Path inv = tmp.resolve("inv.ini");
        Files.writeString(inv, INVENTORY);
        Path pb = tmp.resolve("pb.yaml");
        Files.writeString(pb, PLAYBOOK);
        Inventory inventory = InventoryLoader.load(inv);
        HostInventory hosts = new HostInventory() {
            @Override public List<String> resolve(String pattern) { return HostPattern.resolve(inventory, pattern, tmp); }
            @Override public Map<String, Object> varsFor(String host) { return inventory.varsFor(host); }
            @Override public Map<String, List<String>> groups() { return inventory.groups(); }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        try (ConnectionPool pool = new ConnectionPool(LocalConnection::new)) {
            new PlaybookRunner(hosts, ModuleRegistry.builtin(), RunOptions.defaults(),
                    new ConsoleReporter(ps, verbosity, false, false, false), new Cancel())
                    .run(new PlaybookLoader(ModuleRegistry.builtin()).load(pb), pool);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The status lines under one task's banner, cut before a result body (a debug body's lines left out). */
    private static List<String> lines(String console, String task) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String l : console.split("\n")) {
            if (l.startsWith("TASK [") || l.startsWith("PLAY ")) in = l.startsWith("TASK [" + task + "]");
            else if (in && !l.isBlank() && !l.startsWith(" ") && !l.equals("}")) out.add(l.replaceAll(" => (?!\\(item=).*$", "").replaceAll("(\\(item=[^)]*\\)) => .*$", "$1"));
        }
        out.sort(null);
        return out;
    }

    @Test
    void eachHostsLineIsAnsibles() throws Exception {
        String c = run(1);
        assertEquals(List.of("ok: [h1 -> h2(127.0.0.1)]", "ok: [h2]", "ok: [h3 -> h2(127.0.0.1)]",
                "ok: [h4 -> h2(127.0.0.1)]"), lines(c, "to a host with an address"), c);
        assertEquals(List.of("ok: [h1 -> h3]", "skipping: [h2]", "skipping: [h3]", "skipping: [h4]"),
                lines(c, "to a host whose address is its name"), c);
        assertEquals(List.of("ok: [h1 -> h2(127.0.0.1)] => (item=h2)", "ok: [h1 -> localhost] => (item=localhost)",
                "ok: [h1] => (item=h1)", "skipping: [h2]", "skipping: [h2] => (item=h1) "), // (Ansible's trailing space)
                lines(c, "per item").subList(0, 5), c);
        assertEquals(List.of("...ignoring", "failed: [h1 -> h2(127.0.0.1)] (item=h2)", "failed: [h1] (item=h1)"),
                lines(c, "failing per item").subList(0, 3), c);
    }

    @Test
    void foldedLinesKeepTheDelegateApart() throws Exception {
        String c = run(0);
        assertEquals(List.of("ok: [h2]", "ok: [h[1,3-4] -> h2(127.0.0.1)]"), lines(c, "to a host with an address"), c);
        assertEquals(List.of("ok: [h1 -> h3]", "skipping: [h[2-4]]"), lines(c, "to a host whose address is its name"), c);
        // a debug loop prints each item's message, as Ansible does, each on its delegate's line
        assertEquals(List.of("ok: [h1 -> h2(127.0.0.1)] => (item=h2)", "ok: [h1 -> localhost] => (item=localhost)",
                "ok: [h1] => (item=h1)", "skipping: [h[2-4]]"), lines(c, "per item"), c);
    }
}
