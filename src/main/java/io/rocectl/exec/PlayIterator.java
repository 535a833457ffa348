package io.rocectl.exec;

import io.rocectl.event.Status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each host of a batch is in a {@link Program}: its position, whether it is failed and
 * running an {@code always} part, whether it is done with the play. Hosts move only forward:
 * on success to the next task (past a rescue part), on failure into the innermost rescue, else
 * the innermost always (still failed), else out of the play. Strategies ask it what to run and
 * tell it how each task ended; all of its state is behind this object's lock, so the linear
 * strategy (one thread) and the free strategy (a thread per host) use it alike.
 */
final class PlayIterator {
    /** How a host's task ended, as far as the play is concerned. */
    enum Outcome {
        /** Goes on (also: ended by a meta action). */
        NEXT,
        /** Failed into a rescue part: counts as rescued, not failed. */
        RESCUED,
        /** Failed into an always part: runs it, then fails (or is rescued further out). */
        FAILING,
        /** Failed (or unreachable): out of the play and of the rest of the run. */
        OUT
    }

    /** How a meta action ended this iterator's program early: not at all, the batch, or the play. */
    enum Ended {
        NO,
        /** {@code meta: end_batch}: every host of the batch is done; later batches run. */
        BATCH,
        /** {@code meta: end_play}: every host is done, and no later batch of the play runs. */
        PLAY
    }

    private static final class Cursor {
        int pc;
        boolean failing;
        boolean done;
    }

    private final Program program;
    private final RunState run;
    private final Map<String, Cursor> cursors = new LinkedHashMap<>();
    /** What {@link #endBatch} ended: this iterator's own result, never shared between hosts' includes. */
    private Ended ended = Ended.NO;

    /** The files included to reach this program, outermost first (empty for a play's own tasks). */
    private final List<String> includes;

    PlayIterator(Program program, List<String> hosts, RunState run) {
        this(program, hosts, run, List.of());
    }

    /** An included program: {@code includes} names the files (or roles) included to reach it. */
    PlayIterator(Program program, List<String> hosts, RunState run, List<String> includes) {
        this.program = program;
        this.run = run;
        this.includes = List.copyOf(includes);
        for (String h : hosts) cursors.put(h, new Cursor());
    }

    /** The chain of includes that led here, outermost first. */
    List<String> includes() {
        return includes;
    }

    Program program() {
        return program;
    }

    /** The host's next task, or null when it is done with the play. */
    synchronized Program.Slot peek(String host) {
        Cursor c = cursors.get(host);
        if (!live(host, c)) return null;
        return program.slot(c.pc);
    }

    /** Lockstep: the lowest position any live host is at, or -1 when every host is done. */
    synchronized int lowest() {
        int min = -1;
        for (Map.Entry<String, Cursor> e : cursors.entrySet()) {
            Cursor c = e.getValue();
            if (live(e.getKey(), c) && (min < 0 || c.pc < min)) min = c.pc;
        }
        return min;
    }

    /** The live hosts at a position, in batch order. */
    synchronized List<String> at(int pc) {
        List<String> out = new ArrayList<>();
        cursors.forEach((h, c) -> {
            if (live(h, c) && c.pc == pc) out.add(h);
        });
        return out;
    }

    /** Hosts not done with the play, in batch order. */
    synchronized List<String> live() {
        List<String> out = new ArrayList<>();
        cursors.forEach((h, c) -> {
            if (live(h, c)) out.add(h);
        });
        return out;
    }

    /** Moves a host past its current task according to how the task ended there. */
    synchronized Outcome record(String host, Status status) {
        Cursor c = cursors.get(host);
        if (!live(host, c)) return Outcome.OUT;
        if (status == Status.UNREACHABLE) {
            c.done = true;
            run.unreachable(host);
            return Outcome.OUT;
        }
        if (status == Status.FAILED) return unwind(host, c, c.pc, program.slot(c.pc).frame());
        if (c.failing) return leaveFailing(host, c);
        c.pc = program.next(c.pc);
        finish(c);
        return Outcome.NEXT;
    }

    /**
     * A failed host in an always part finished a task there: it stays inside, or, at the end of
     * the part, goes on failing outward (into an outer rescue: {@link Outcome#RESCUED}).
     */
    private Outcome leaveFailing(String host, Cursor c) {
        int p = c.pc + 1;
        for (Program.Frame f = program.slot(c.pc).frame(); f != null; f = f.parent()) {
            if (c.pc >= f.alwaysStart() && c.pc < f.end()) {
                if (p < f.end()) {
                    c.pc = p;
                    return Outcome.FAILING;
                }
                return unwind(host, c, f.blockStart(), f.parent());
            }
        }
        return unwind(host, c, c.pc, null);
    }

    /** Failure at {@code pc}: the innermost enclosing rescue, else always, else out. */
    private Outcome unwind(String host, Cursor c, int pc, Program.Frame frame) {
        int at = pc;
        for (Program.Frame f = frame; f != null; f = f.parent()) {
            if (f.inBlock(at) && f.hasRescue()) {
                c.pc = f.rescueStart();
                c.failing = false;
                return Outcome.RESCUED;
            }
            if ((f.inBlock(at) || f.inRescue(at)) && f.hasAlways()) {
                c.pc = f.alwaysStart();
                c.failing = true;
                return Outcome.FAILING;
            }
            at = f.blockStart();
        }
        c.done = true;
        c.failing = false;
        run.fail(host);
        return Outcome.OUT;
    }

    private void finish(Cursor c) {
        if (c.pc >= program.size()) c.done = true;
    }

    /** A host failed outside the task flow (a handler): out of the play and the run. */
    synchronized void fail(String host) {
        Cursor c = cursors.get(host);
        if (c != null) c.done = true;
        run.fail(host);
    }

    /** {@code meta: end_host}: done with this play, not failed. */
    synchronized void end(String host) {
        Cursor c = cursors.get(host);
        if (c != null) c.done = true;
    }

    /** The play stopped (its failure limit): every host done. */
    synchronized void endAll() {
        for (Cursor c : cursors.values()) c.done = true;
    }

    /**
     * {@code meta: end_batch} or {@code end_play} ran here: every host done, and this iterator
     * remembers which (the play's end outranks the batch's), so the include that made it (an
     * iterator of its own) ends its caller's batch or play, and the play knows whether its next
     * batch runs.
     */
    synchronized void endBatch(Ended how) {
        endAll();
        if (how.compareTo(ended) > 0) ended = how;
    }

    /** What {@link #endBatch} ended on this iterator: the result of its program, read by whoever ran it. */
    synchronized Ended ended() {
        return ended;
    }

    /**
     * {@code any_errors_fatal} after an unrescued failure: hosts in a rescue or always part finish
     * it (as Ansible lets them), every other host stops here.
     */
    synchronized void stopAllButRecovering() {
        for (Cursor c : cursors.values()) {
            if (c.done) continue;
            boolean recovering = false;
            for (Program.Frame f = c.pc < program.size() ? program.slot(c.pc).frame() : null; f != null; f = f.parent()) {
                if (c.pc >= f.rescueStart() && c.pc < f.end()) recovering = true;
            }
            if (!recovering) c.done = true;
        }
    }

    private boolean live(String host, Cursor c) {
        return c != null && !c.done && c.pc < program.size() && run.active(host);
    }
}
