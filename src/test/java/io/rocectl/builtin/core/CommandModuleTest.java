package io.rocectl.builtin.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandModuleTest {
    private final CommandModule command = new CommandModule();
    private final ShellModule shell = new ShellModule();

    @TempDir
    Path dir;

    @Test
    void freeFormRunsWithoutShell() throws Exception {
        ModuleResult r = Ctx.run(command, Map.of(ArgSpec.RAW, "printf '%s|%s\\n' 'a b;$(id)' '>x'"));
        assertTrue(r.changed());
        assertFalse(r.failed());
        assertEquals(0, r.data().get("rc"));
        assertEquals("a b;$(id)|>x", r.data().get("stdout"));
        assertEquals(List.of("a b;$(id)|>x"), r.data().get("stdout_lines"));
        assertEquals(List.of("printf", "%s|%s\\n", "a b;$(id)", ">x"), r.data().get("cmd"));
        assertTrue(r.data().get("delta").toString().matches("0:00:\\d\\d\\.\\d{6}"), r.data().get("delta").toString());
    }

    @Test
    void nonZeroExitFailsWithOutputs() throws Exception {
        ModuleResult r = Ctx.run(command, Map.of("argv", List.of("sh", "-c", "echo out; echo err >&2; exit 3")));
        assertTrue(r.failed());
        assertTrue(r.changed());
        assertEquals("non-zero return code", r.msg());
        assertEquals(3, r.data().get("rc"));
        assertEquals("out", r.data().get("stdout"));
        assertEquals("err", r.data().get("stderr"));
    }

    @Test
    void missingProgramIsAFailureNotUnreachable() throws Exception {
        ModuleResult r = Ctx.run(command, Map.of("cmd", "no-such-program-rocectl --x"));
        assertTrue(r.failed());
        assertFalse(r.changed());
        assertEquals(2, r.data().get("rc"));
        assertEquals("[Errno 2] No such file or directory: b'no-such-program-rocectl'", r.msg());
        assertEquals("", r.data().get("stderr"));
        ModuleResult p = Ctx.run(command, Map.of("argv", List.of(dir.resolve("none").toString())));
        assertEquals(2, p.data().get("rc"));
        ModuleResult d = Ctx.run(command, Map.of("argv", List.of(dir.toString())));
        assertEquals(13, d.data().get("rc"));
        assertEquals("[Errno 13] Permission denied: b'" + dir + "'", d.msg());
        ModuleResult ok = Ctx.run(command, Map.of("argv", List.of("sh", "-c", "exit 127")));
        assertEquals(127, ok.data().get("rc"), "a program that ran and exited 127 keeps its rc");
    }

    @Test
    void wordsExpandTildeAndVariablesFromTheHostWithoutAShell() throws Exception {
        String home = System.getenv("HOME");
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        ModuleResult r = Ctx.run(command, Map.of(ArgSpec.RAW,
                "printf '%s|%s|%s|%s|%s' ~/x ${NO_SUCH_VAR_ROCECTL} $HOME '$HOME' ~no-such-user-rocectl/y"));
        assertEquals(home + "/x|${NO_SUCH_VAR_ROCECTL}|" + home + "|" + home + "|~no-such-user-rocectl/y",
                r.data().get("stdout"));
        assertEquals("$HOME", ((List<?>) r.data().get("cmd")).get(4), "cmd is registered as written");
        // a value with shell syntax stays one word: expansion is string work, never a shell
        ModuleResult s = Ctx.run(command, Map.of("argv", List.of("printf", "%s", "$PATH;$(rm " + victim + ")")));
        assertTrue(s.data().get("stdout").toString().endsWith(";$(rm " + victim + ")"));
        assertTrue(Files.exists(victim));
    }

    @Test
    void chdirCreatesAndRemovesArePathsExpandedOnTheHost() throws Exception {
        String home = System.getenv("HOME");
        ModuleResult r = Ctx.run(command, Map.of("argv", List.of("pwd"), "chdir", "~"));
        assertEquals(home, r.data().get("stdout"));
        ModuleResult s = Ctx.run(command, Map.of("argv", List.of("false"), "creates", "$HOME"));
        assertFalse(s.failed(), "creates=$HOME exists: the command does not run");
        assertEquals("Did not run command since '" + home + "' exists", s.msg());
        assertEquals("skipped, since " + home + " exists", s.data().get("stdout"));
    }

    @Test
    void expansionIsPythons() {
        Map<String, String> env = Map.of("A", "1", "B_2", "x");
        assertEquals("1-${A-$Z-${B_2}", ArgvExpand.expandVars("$A-${A-$Z-${B_2}", env));
        assertEquals("1-${A-$Z-x", ArgvExpand.expandVars("$A-${A-$Z-$B_2", env));
        assertEquals(List.of("/home/u/d", "/root", "~nobody", "/home/u"), ArgvExpand.expand(
                List.of("~/d", "~root", "~nobody", "~"), Map.of("HOME", "/home/u/"), u -> u.equals("root") ? "/root/" : null));
        assertEquals(List.of("/"), ArgvExpand.expand(List.of("~"), Map.of("HOME", "/"), u -> null));
        assertEquals("b'a\\'b\"'", CommandModule.pyBytes("a'b\""));
        assertEquals("b\"a'b\"", CommandModule.pyBytes("a'b"));
    }

    @Test
    void metacharactersAreLiteralArguments() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "keep");
        String evil = "x; rm -rf " + victim + " $(rm " + victim + ") `rm " + victim + "` \"q\" 'r'\nline2";
        evil = " " + evil + " \t";
        ModuleResult r = Ctx.run(command, Map.of("argv", List.of("printf", "%s", evil), "strip_empty_ends", false));
        assertEquals(evil, r.data().get("stdout"));
        assertTrue(Files.exists(victim));
        ModuleResult c = Ctx.run(command, Map.of("argv", List.of("pwd"), "chdir", dir.resolve("d;$(rm x)").toString()));
        assertTrue(c.failed(), "cd into a missing dir must fail");
        Path odd = Files.createDirectory(dir.resolve("d; $(touch pwned) 'q'"));
        ModuleResult d = Ctx.run(command, Map.of(ArgSpec.RAW, "pwd", "chdir", odd.toString()));
        assertEquals(odd.toString(), d.data().get("stdout"));
        assertFalse(Files.exists(dir.resolve("pwned")));
        assertTrue(Files.exists(victim));
    }

    @Test
    void createsAndRemovesShortCircuit() throws Exception {
        Path marker = dir.resolve("made it");
        Map<String, Object> args = Map.of("argv", List.of("touch", marker.toString()), "creates", dir + "/made*");
        ModuleResult first = Ctx.run(command, args);
        assertTrue(first.changed());
        assertTrue(Files.exists(marker));
        ModuleResult second = Ctx.run(command, args);
        assertFalse(second.changed());
        assertEquals("Did not run command since '" + dir + "/made*' exists", second.msg());

        ModuleResult rem = Ctx.run(command, Map.of("argv", List.of("rm", marker.toString()), "removes", marker.toString()));
        assertTrue(rem.changed());
        ModuleResult rem2 = Ctx.run(command, Map.of("argv", List.of("rm", marker.toString()), "removes", marker.toString()));
        assertFalse(rem2.changed());
        assertEquals("Did not run command since '" + marker + "' does not exist", rem2.msg());
    }

    @Test
    void inlineOptionsInFreeForm() throws Exception {
        ModuleResult r = Ctx.run(command, Map.of(ArgSpec.RAW, "pwd chdir=" + dir));
        assertEquals(dir.toString(), r.data().get("stdout"));
        assertEquals(List.of("pwd"), r.data().get("cmd"));
        Map<String, Object> args = new HashMap<>();
        CommandRequest req = CommandRequest.from(Map.of(ArgSpec.RAW, "echo a creates='/x y' b removes=/z"), false);
        assertEquals(List.of("echo", "a", "b"), req.argv());
        assertEquals("/x y", req.creates());
        assertEquals("/z", req.removes());
        assertTrue(args.isEmpty());
    }

    @Test
    void checkModeDoesNotRun() throws Exception {
        Path f = dir.resolve("f");
        ModuleResult r = Ctx.check(command, Map.of("argv", List.of("touch", f.toString())));
        assertFalse(r.changed());
        assertEquals(true, r.data().get("skipped"));
        assertFalse(Files.exists(f));
        ModuleResult c = Ctx.check(command, Map.of("argv", List.of("touch", f.toString()), "creates", f.toString()));
        assertTrue(c.changed(), "creates not there: would run");
        assertFalse(Files.exists(f));
        Files.writeString(f, "");
        ModuleResult c2 = Ctx.check(command, Map.of("argv", List.of("touch", f.toString()), "creates", f.toString()));
        assertFalse(c2.changed());
    }

    @Test
    void stdinIsFed() throws Exception {
        ModuleResult r = Ctx.run(command, Map.of(ArgSpec.RAW, "cat", "stdin", "hello $(id)"));
        assertEquals("hello $(id)", r.data().get("stdout"));
        ModuleResult raw = Ctx.run(command, Map.of(ArgSpec.RAW, "od -c", "stdin", "x", "stdin_add_newline", false,
                "strip_empty_ends", false));
        assertTrue(raw.data().get("stdout").toString().contains("x\n0000001"), raw.data().get("stdout").toString());
    }

    @Test
    void shellRunsScriptWithChdirAndExecutable() throws Exception {
        ModuleResult r = Ctx.run(shell, Map.of(ArgSpec.RAW, "echo $((1+2)) | tr 3 x; pwd", "chdir", dir.toString()));
        assertEquals("x\n" + dir, r.data().get("stdout"));
        assertEquals("echo $((1+2)) | tr 3 x; pwd", r.data().get("cmd"));
        ModuleResult b = Ctx.run(shell, Map.of("cmd", "echo ${BASH_VERSION:+bash}", "executable", "/bin/bash"));
        assertEquals("bash", b.data().get("stdout"));
        ModuleResult f = Ctx.run(shell, Map.of(ArgSpec.RAW, "exit 4"));
        assertTrue(f.failed());
        assertEquals(4, f.data().get("rc"));
    }

    @Test
    void badArguments() {
        assertEquals("no command given",
                assertThrows(ModuleException.class, () -> Ctx.run(command, Map.of())).getMessage());
        assertEquals("only one of the free-form command, 'cmd' and 'argv' may be given",
                assertThrows(ModuleException.class,
                        () -> Ctx.run(command, Map.of(ArgSpec.RAW, "ls", "cmd", "ls"))).getMessage());
        assertEquals("No closing quotation in: echo 'x",
                assertThrows(ModuleException.class, () -> Ctx.run(command, Map.of(ArgSpec.RAW, "echo 'x"))).getMessage());
    }

    @Test
    void deltaFormat() {
        assertEquals("1:01:01.000002", CommandModule.delta(java.time.Duration.ofSeconds(3661).plusNanos(2500)));
    }
}
