package io.rocectl.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * What a host sends is data: a registered result, a set_fact from it, a loop item from it and a
 * gathered fact holding {@code {{ secret }}} are printed and written literally, never rendered
 * again with the control node's variables. Trusted inventory variables still render.
 */
class TemplatesAsDataTest {
    private static final String SECRET = "TOPSECRET-4711";
    @TempDir
    static Path tmp;
    static MinaHosts hosts;
    static Path inv;

    @BeforeAll
    static void start() throws Exception {
        // a host whose `uname -r` (its kernel fact) answers with a template
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path uname = bin.resolve("uname");
        Files.writeString(uname, "#!/bin/sh\nif [ \"$1\" = -r ]; then echo '{{ secret }}'; exit 0; fi\nexec "
                + realUname() + " \"$@\"\n");
        Files.setPosixFilePermissions(uname, PosixFilePermissions.fromString("rwxr-xr-x"));
        hosts = new MinaHosts(tmp, 1, Map.of("PATH", bin + ":" + System.getenv("PATH")));
        inv = hosts.inventory("secret=" + SECRET + "\ngreeting=\"hi {{ inventory_hostname }}\"\n");
        Files.writeString(hosts.home("node01").resolve("motd"), "{{ secret }}\n{{ secret }} again\n");
    }

    private static String realUname() {
        for (String d : System.getenv("PATH").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "uname"))) return Path.of(d, "uname").toString();
        }
        throw new IllegalStateException("no uname on PATH");
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    private static List<String> debugMessages(JsonNode doc) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : doc.path("plays").get(0).path("tasks")) {
            JsonNode r = t.path("hosts").path("node01").path("result");
            if (r.has("msg") && t.path("task").asText().startsWith("show")) out.add(r.path("msg").asText());
            for (JsonNode item : r.path("results")) out.add(item.path("msg").asText());
        }
        return out;
    }

    @Test
    void hostOutputIsNeverRenderedAgain() throws Exception {
        Path pb = tmp.resolve("data.yaml");
        Files.writeString(pb, """
                - hosts: node01
                  gather_facts: true
                  tasks:
                    - command: cat {{ host_dir }}/motd
                      register: out
                    - name: show registered
                      debug:
                        msg: "c={{ out.stdout }}"
                    - set_fact:
                        copied: "{{ out.stdout_lines[0] }}"
                    - name: show fact set from output
                      debug:
                        msg: "y={{ copied }}"
                    - name: show items
                      debug:
                        msg: "i={{ item }}"
                      loop: "{{ out.stdout_lines }}"
                    - name: show gathered fact
                      debug:
                        msg: "h={{ ansible_kernel }}"
                    - name: show inventory template
                      debug:
                        msg: "g={{ greeting }}"
                    - name: show inventory template through filters and hostvars
                      debug:
                        msg: "{{ greeting | upper }}/{{ hostvars[inventory_hostname].greeting }}"
                    - name: show inventory template alone
                      debug:
                        msg: "{{ greeting }}"
                    - name: var
                      debug:
                        var: greeting
                    - copy:
                        dest: "{{ host_dir }}/back"
                        content: "c={{ out.stdout }}"
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--output", "json");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals(List.of("c={{ secret }}\n{{ secret }} again", "y={{ secret }}", "i={{ secret }}",
                "i={{ secret }} again", "h={{ secret }}", "g=hi node01", "HI NODE01/hi node01", "hi node01"), debugMessages(doc));
        JsonNode var = doc.path("plays").get(0).path("tasks").get(10); // 0 is Gathering Facts
        assertEquals("var", var.path("task").asText());
        assertEquals("hi node01", var.path("hosts").path("node01").path("result").path("greeting").asText(),
                "modules see an inventory template rendered");
        assertEquals("c={{ secret }}\n{{ secret }} again", Files.readString(hosts.home("node01").resolve("back")));
        assertFalse(r.out().contains(SECRET), "the secret never leaves the control node: " + r.out());
    }

    @Test
    void textOutputPrintsHostDataLiterally() throws Exception {
        Path pb = tmp.resolve("text.yaml");
        Files.writeString(pb, """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - command: cat {{ host_dir }}/motd
                      register: out
                    - debug:
                        msg: "c={{ out.stdout_lines | join(',') }}"
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-vvv");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertFalse(r.out().contains(SECRET), r.out());
        assertEquals(true, r.out().contains("c={{ secret }},{{ secret }} again"), r.out());
    }
}
