package io.rocectl.builtin.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UnifiedDiffTest {
    @Test
    void equalTextsGiveNothing() {
        assertEquals("", UnifiedDiff.diff("a\n", "a\n", "x", "y"));
    }

    @Test
    void oneLineChangedWithContext() {
        String before = "1\n2\n3\n4\n5\n6\n7\n8\n";
        String after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n";
        assertEquals("""
                --- before: /f
                +++ after: /f
                @@ -2,7 +2,7 @@
                 2
                 3
                 4
                -5
                +FIVE
                 6
                 7
                 8
                """, UnifiedDiff.diff(before, after, "before: /f", "after: /f"));
    }

    @Test
    void newFileAndMissingNewline() {
        assertEquals("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n", UnifiedDiff.diff("", "x\ny\n", "a", "b"));
        assertEquals("--- a\n+++ b\n@@ -1 +1,2 @@\n-x\n\\ No newline at end of file\n+x\n+y\n",
                UnifiedDiff.diff("x", "x\ny\n", "a", "b"));
    }

    @Test
    void farApartChangesMakeTwoHunksLikeDiffU(@TempDir Path dir) throws Exception {
        StringBuilder a = new StringBuilder();
        for (int i = 1; i <= 30; i++) a.append("line ").append(i).append('\n');
        String before = a.toString();
        String after = before.replace("line 3\n", "line three\n").replace("line 25\n", "");
        assertEquals(gnuDiff(dir, before, after), UnifiedDiff.diff(before, after, "A", "B"));
    }

    /** Random edits: the diff applied with patch(1) must give the new text back. */
    @Test
    void patchAppliesRandomDiffs(@TempDir Path dir) throws Exception {
        Random rnd = new Random(42);
        for (int round = 0; round < 25; round++) {
            String before = randomText(rnd);
            String after = mutate(rnd, before);
            String d = UnifiedDiff.diff(before, after, "f", "f");
            Path f = dir.resolve("f");
            Files.writeString(f, before);
            if (d.isEmpty()) {
                assertEquals(before, after);
                continue;
            }
            Process p = new ProcessBuilder("patch", "-s", f.toString()).redirectErrorStream(true).start();
            p.getOutputStream().write(d.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), "patch failed: " + out + "\n" + d);
            assertEquals(after, Files.readString(f), "round " + round + ":\n" + d);
        }
    }

    private static String randomText(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(40);
        for (int i = 0; i < n; i++) sb.append("l").append(rnd.nextInt(8)).append('\n');
        return sb.toString();
    }

    private static String mutate(Random rnd, String s) {
        java.util.List<String> l = new java.util.ArrayList<>(UnifiedDiff.lines(s));
        int edits = 1 + rnd.nextInt(6);
        for (int i = 0; i < edits; i++) {
            int op = rnd.nextInt(3);
            if (op == 0 || l.isEmpty()) l.add(l.isEmpty() ? 0 : rnd.nextInt(l.size() + 1), "n" + rnd.nextInt(99) + "\n");
            else if (op == 1) l.remove(rnd.nextInt(l.size()));
            else l.set(rnd.nextInt(l.size()), "c" + rnd.nextInt(99) + "\n");
        }
        return String.join("", l);
    }

    private static String gnuDiff(Path dir, String a, String b) throws Exception {
        Path fa = Files.writeString(dir.resolve("a"), a);
        Path fb = Files.writeString(dir.resolve("b"), b);
        Process p = new ProcessBuilder("diff", "-u", "--label", "A", "--label", "B", fa.toString(), fb.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
