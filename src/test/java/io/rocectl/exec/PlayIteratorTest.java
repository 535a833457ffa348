package io.rocectl.exec;

import io.rocectl.event.Status;
import io.rocectl.playbook.Block;
import io.rocectl.playbook.Step;
import io.rocectl.playbook.Task;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-host state machine alone: positions, rescue/always transitions, lockstep order, failed hosts. */
class PlayIteratorTest {
    private static Task t(String name) {
        return Task.builder("debug").name(name).build();
    }

    private static Block block(List<Step> body, List<Step> rescue, List<Step> always) {
        return new Block(null, Map.of(), body, rescue, always, Set.of(), null);
    }

    private static String at(PlayIterator it, String host) {
        Program.Slot s = it.peek(host);
        return s == null ? null : s.task().name();
    }

    // a, [b, [c] always [d], e] rescue [r] always [x], z
    private static final List<Step> PLAY = List.of(t("a"),
            block(List.of(t("b"), block(List.of(t("c")), List.of(), List.of(t("d"))), t("e")), List.of(t("r")),
                    List.of(t("x"))),
            t("z"));

    @Test
    void successSkipsRescueAndFailureTakesTheInnermostWayOut() {
        RunState run = new RunState();
        PlayIterator it = new PlayIterator(Program.of(PLAY), List.of("ok", "inner", "always", "rescue"), run);
        for (String h : List.of("ok", "inner", "always", "rescue")) {
            assertEquals("a", at(it, h));
            assertEquals(PlayIterator.Outcome.NEXT, it.record(h, Status.OK));
            it.record(h, Status.CHANGED); // b
            assertEquals("c", at(it, h));
        }
        // no failure: c, d, e, x, z (the rescue is skipped)
        it.record("ok", Status.OK);
        assertEquals("d", at(it, "ok"));
        it.record("ok", Status.OK);
        assertEquals("e", at(it, "ok"));
        it.record("ok", Status.SKIPPED);
        assertEquals("x", at(it, "ok"));
        it.record("ok", Status.OK);
        assertEquals("z", at(it, "ok"));
        it.record("ok", Status.OK);
        assertNull(at(it, "ok"));
        assertTrue(run.active("ok"));

        // c fails: the inner always runs failing, then the outer rescue catches it
        assertEquals(PlayIterator.Outcome.FAILING, it.record("inner", Status.FAILED));
        assertEquals("d", at(it, "inner"));
        assertEquals(PlayIterator.Outcome.RESCUED, it.record("inner", Status.OK));
        assertEquals("r", at(it, "inner"));
        it.record("inner", Status.OK);
        assertEquals("x", at(it, "inner"));
        it.record("inner", Status.OK);
        assertEquals("z", at(it, "inner"));

        // a failure in an always part goes to the enclosing block's rescue
        it.record("always", Status.OK);
        assertEquals(PlayIterator.Outcome.RESCUED, it.record("always", Status.FAILED));
        assertEquals("r", at(it, "always"));

        // a failure in the rescue runs the always part, then the host is out of the run
        it.record("rescue", Status.OK);
        it.record("rescue", Status.OK);
        it.record("rescue", Status.FAILED); // e
        assertEquals(PlayIterator.Outcome.FAILING, it.record("rescue", Status.FAILED)); // r
        assertEquals("x", at(it, "rescue"));
        assertTrue(run.active("rescue"), "still running its always part");
        assertEquals(PlayIterator.Outcome.OUT, it.record("rescue", Status.OK));
        assertNull(at(it, "rescue"));
        assertFalse(run.active("rescue"));
        assertEquals(List.of("rescue"), run.failedHosts());
    }

    @Test
    void lockstepRunsTheLowestPositionFirstAndUnreachableHostsLeave() {
        RunState run = new RunState();
        Program p = Program.of(PLAY);
        PlayIterator it = new PlayIterator(p, List.of("h1", "h2", "h3"), run);
        assertEquals(List.of("h1", "h2", "h3"), it.at(it.lowest()));
        it.record("h1", Status.FAILED); // a, outside any block: out
        it.record("h2", Status.OK);
        it.record("h3", Status.UNREACHABLE);
        assertEquals(List.of("h2"), it.live());
        assertEquals(List.of("h1"), run.failedHosts());
        assertEquals(List.of("h3"), run.unreachableHosts());
        assertEquals("b", p.slot(it.lowest()).task().name());
        it.end("h2");
        assertEquals(-1, it.lowest(), "meta end_host: done, not failed");
        assertTrue(run.active("h2"));
    }

    @Test
    void anEndIsTheIteratorsOwnResultAndThePlaysEndOutranksTheBatchs() {
        RunState run = new RunState();
        PlayIterator it = new PlayIterator(Program.of(PLAY), List.of("h1", "h2"), run);
        PlayIterator other = new PlayIterator(Program.of(PLAY), List.of("h3"), run);
        assertEquals(PlayIterator.Ended.NO, it.ended());
        it.endBatch(PlayIterator.Ended.PLAY);
        assertEquals(-1, it.lowest(), "every host done");
        assertTrue(run.active("h1") && run.active("h2"), "ended, not failed");
        it.endBatch(PlayIterator.Ended.BATCH);
        assertEquals(PlayIterator.Ended.PLAY, it.ended(), "a later end_batch does not undo the end of the play");
        assertEquals(PlayIterator.Ended.NO, other.ended(), "another iterator (another host's include) is not ended");
        assertEquals("a", at(other, "h3"));
    }
}
