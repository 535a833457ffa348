package io.rocectl.builtin.core;

import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SmallModulesTest {
    @Test
    void registryFindsEveryCoreModule() {
        ModuleRegistry reg = ModuleRegistry.builtin();
        for (String n : List.of("command", "shell", "ping", "lineinfile", "copy", "file", "service", "systemd",
                "set_fact", "debug", "assert", "fail", "wait_for")) {
            Module m = reg.find("ansible.builtin." + n);
            assertNotNull(m, n);
            assertEquals(n, m.name());
        }
    }

    @Test
    void ping() throws Exception {
        ModuleResult r = Ctx.run(new PingModule(), Map.of());
        assertFalse(r.changed());
        assertEquals("pong", r.data().get("ping"));
        assertEquals("$(id); x", Ctx.run(new PingModule(), Map.of("data", "$(id); x")).data().get("ping"));
    }

    @Test
    void setFact() throws Exception {
        ModuleResult r = Ctx.run(new SetFactModule(), Map.of("roce_ok", true, "mtu", 9000, "cacheable", true));
        assertFalse(r.changed());
        assertEquals(Map.of("roce_ok", true, "mtu", 9000), r.facts());
        assertTrue(new SetFactModule().args().acceptsAnyKey());
        assertEquals("'bad-name' is not a valid variable name",
                assertThrows(ModuleException.class, () -> Ctx.run(new SetFactModule(), Map.of("bad-name", 1))).getMessage());
    }

    @Test
    void debug() throws Exception {
        DebugModule d = new DebugModule();
        assertEquals("Hello world!", Ctx.run(d, Map.of()).msg());
        assertEquals(Map.of("msg", "hi"), Ctx.run(d, Map.of("msg", "hi")).data());
        Map<String, Object> vars = Map.of("nics", List.of(Map.of("name", "ens1f0", "mtu", 9000)),
                "hostvars", Map.of("gpu01", Map.of("x", "y")));
        ModuleResult v = new DebugModule().run(Ctx.of(Map.of("var", "nics[0].mtu"), vars, false, false));
        // an expression is templated as Ansible's debug action does: its value comes back as text
        assertEquals(Map.of("nics[0].mtu", "9000"), v.data());
        assertEquals("nics[0].mtu: 9000", v.msg());
        assertEquals(List.of(Map.of("name", "ens1f0", "mtu", 9000)),
                new DebugModule().run(Ctx.of(Map.of("var", "nics"), vars, false, false)).data().get("nics"), "a lone name keeps its value");
        assertEquals("y", new DebugModule().run(Ctx.of(Map.of("var", "hostvars['gpu01'].x"), vars, false, false))
                .data().get("hostvars['gpu01'].x"));
        assertEquals(DebugModule.UNDEFINED, new DebugModule().run(Ctx.of(Map.of("var", "nics[3]"), vars, false, false))
                .data().get("nics[3]"));
        assertEquals("1", new DebugModule().run(Ctx.of(Map.of("var", "nics | length"), vars, false, false))
                .data().get("nics | length"), "a filter is evaluated");
        assertEquals(DebugModule.UNDEFINED, new DebugModule().run(Ctx.of(Map.of("var", "nothing_here"), vars, false, false))
                .data().get("nothing_here"));
    }

    @Test
    void assertModule() throws Exception {
        AssertModule a = new AssertModule();
        ModuleResult ok = Ctx.run(a, Map.of("that", List.of(true, "True", "true"), "success_msg", "fine"));
        assertFalse(ok.failed());
        assertEquals("fine", ok.msg());
        ModuleResult bad = Ctx.run(a, Map.of("that", List.of("True", "False"), "fail_msg", "arp_ignore must be 1"));
        assertTrue(bad.failed());
        assertEquals("arp_ignore must be 1", bad.msg());
        assertEquals("2", bad.data().get("assertion"));
        // with the conditions' text from the engine, the failed one's text, as Ansible registers it
        ModuleResult named = Ctx.run(a, Map.of("that", List.of("True", "False"),
                AssertModule.SOURCE, List.of("a == 1", "b > 2")));
        assertEquals("b > 2", named.data().get("assertion"));
        assertEquals(false, named.data().get("evaluated_to"));
        ModuleResult one = Ctx.run(a, Map.of("that", "false"));
        assertTrue(one.failed());
        assertEquals("Assertion failed", one.msg());
        ModuleResult raw = Ctx.run(a, Map.of("that", List.of("x == 1")));
        assertTrue(raw.failed());
        assertEquals("assertion 1 did not evaluate to a boolean: 'x == 1'", raw.msg());
    }

    @Test
    void fail() throws Exception {
        ModuleResult r = Ctx.run(new FailModule(), Map.of());
        assertTrue(r.failed());
        assertEquals("Failed as requested from task", r.msg());
        assertEquals("boom", Ctx.run(new FailModule(), Map.of("msg", "boom")).msg());
    }
}
