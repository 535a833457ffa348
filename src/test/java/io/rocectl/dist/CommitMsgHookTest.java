package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's {@code .githooks/commit-msg} (enabled with {@code git config core.hooksPath .githooks}):
 * a subject of at most 72 characters and a blank line before the body pass; a longer subject, an
 * empty one or a body glued to the subject is refused with a message saying why.
 */
class CommitMsgHookTest {
    @TempDir Path dir;

    private record Result(int rc, String err) {}

    private Result hook(String message) throws Exception {
        Path msg = dir.resolve("COMMIT_EDITMSG");
        Files.writeString(msg, message, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("bash", ".githooks/commit-msg", msg.toString()).start();
        p.getOutputStream().close();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        p.getInputStream().readAllBytes();
        return new Result(p.waitFor(), err);
    }

    @Test
    void aShortSubjectWithABodyPasses() throws Exception {
        String subject = "x".repeat(72);
        assertEquals(0, hook(subject + "\n\nThe details, as long as they need to be. " + "y".repeat(200) + "\n").rc());
        assertEquals(0, hook("Fix the probe's deadline\n").rc());
        assertEquals(0, hook("# a comment git strips\nFix the probe's deadline\n\nbody\n").rc());
    }

    @Test
    void aLongSubjectIsRefusedWithItsLength() throws Exception {
        Result r = hook("x".repeat(73) + "\n\nbody\n");
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("73 characters, at most 72"), r.err());
    }

    @Test
    void anEmptySubjectOrABodyGluedToTheSubjectIsRefused() throws Exception {
        Result empty = hook("\n\nbody only\n");
        assertEquals(1, empty.rc());
        assertTrue(empty.err().contains("subject (first line) is empty"), empty.err());
        Result glued = hook("Subject\nbody right under it\n");
        assertEquals(1, glued.rc());
        assertTrue(glued.err().contains("blank line"), glued.err());
    }
}
