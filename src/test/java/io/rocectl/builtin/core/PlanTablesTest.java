package io.rocectl.builtin.core;

import io.rocectl.transport.Cmd;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Table-driven tests of the pure plans from the fixture files. */
class PlanTablesTest {

    @TestFactory
    Stream<DynamicTest> statParsing() {
        return Fixtures.cases("file/stat.yaml").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
            FileStat s = FileStat.parse((String) c.get("path"), (String) c.get("out"));
            @SuppressWarnings("unchecked")
            Map<String, Object> e = (Map<String, Object>) c.get("expect");
            assertEquals(new FileStat((Boolean) e.get("exists"), (String) e.get("type"), (String) e.get("mode"),
                    (String) e.get("uid"), (String) e.get("owner"), (String) e.get("gid"), (String) e.get("group"),
                    (String) e.get("sha256"), (String) e.get("realPath"), (String) e.get("target"), (String) e.get("umask")), s);
        }));
    }

    @TestFactory
    Stream<DynamicTest> filePlans() {
        return Fixtures.cases("file/plans.yaml").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
            String path = (String) c.get("path");
            FilePlan p = FilePlan.plan(path, FileStat.parse(path, (String) c.get("cur")), (String) c.get("state"),
                    (String) c.get("src"), attrs(c), Boolean.TRUE.equals(c.get("force")));
            check(c, p.commands(), p.failure(), p.reason());
        }));
    }

    @TestFactory
    Stream<DynamicTest> copyPlans() {
        return Fixtures.cases("copy/plans.yaml").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
            String dest = (String) c.get("dest");
            CopyPlan p = CopyPlan.plan(dest, FileStat.parse(dest, (String) c.get("cur")), (String) c.get("want"),
                    attrs(c), !Boolean.FALSE.equals(c.get("force")));
            if (c.containsKey("failure")) {
                assertEquals(c.get("failure"), p.failure());
                return;
            }
            assertNull(p.failure());
            @SuppressWarnings("unchecked")
            Map<String, Object> e = (Map<String, Object>) c.get("expect");
            assertEquals(e.get("write"), p.write());
            if (e.containsKey("mode")) assertEquals(e.get("mode"), p.mode());
            assertEquals(e.get("attrs"), argvs(p.attrs().commands()));
            if (e.containsKey("changed")) assertEquals(e.get("changed"), p.changed());
            if (e.containsKey("reason")) assertEquals(e.get("reason"), p.reason());
        }));
    }

    @TestFactory
    Stream<DynamicTest> servicePlans() {
        return Fixtures.cases("service/plans.yaml").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
            UnitStatus st = UnitStatus.parse((String) c.get("show"));
            ServicePlan p = ServicePlan.plan(st.id(), st, (String) c.get("state"), (Boolean) c.get("enabled"),
                    (Boolean) c.get("masked"));
            if (c.containsKey("failure")) {
                assertEquals(c.get("failure"), p.failure());
                return;
            }
            assertNull(p.failure());
            assertEquals(c.get("expect"), p.verbs());
            if (c.containsKey("reason")) assertEquals(c.get("reason"), p.reason());
        }));
    }

    private static FileAttrs attrs(Map<String, Object> c) {
        return new FileAttrs(FileMode.parse(c.get("mode")), (String) c.get("owner"), (String) c.get("group"));
    }

    private static void check(Map<String, Object> c, List<Cmd> cmds, String failure, String reason) {
        if (c.containsKey("failure")) {
            assertEquals(c.get("failure"), failure);
            return;
        }
        assertNull(failure, failure);
        assertEquals(c.get("expect"), argvs(cmds));
        if (c.containsKey("reason")) assertEquals(c.get("reason"), reason);
    }

    private static List<List<String>> argvs(List<Cmd> cmds) {
        List<List<String>> out = new ArrayList<>();
        for (Cmd c : cmds) {
            List<String> argv = new ArrayList<>(c.argv());
            if (argv.size() > 2 && argv.get(2).equals(FilePlan.MKDIRS)) argv.set(2, "MKDIRS"); // the script by name
            out.add(argv);
        }
        return out;
    }
}
