package io.rocectl.exec;

import io.rocectl.playbook.Block;
import io.rocectl.playbook.Step;
import io.rocectl.playbook.Task;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A play's task tree laid out flat: every task has a position, and every block a {@link Frame}
 * giving where its block, rescue and always parts start and where it ends. A host only ever
 * moves forward through the positions (into rescue on failure, past it otherwise), which is
 * what lets {@link PlayIterator} keep one position per host. Pure and immutable.
 */
final class Program {
    /** One block's regions: [blockStart, rescueStart) block, [rescueStart, alwaysStart) rescue, [alwaysStart, end) always. */
    record Frame(int blockStart, int rescueStart, int alwaysStart, int end, Frame parent) {
        boolean inBlock(int pc) {
            return pc >= blockStart && pc < rescueStart;
        }

        boolean inRescue(int pc) {
            return pc >= rescueStart && pc < alwaysStart;
        }

        boolean hasRescue() {
            return alwaysStart > rescueStart;
        }

        boolean hasAlways() {
            return end > alwaysStart;
        }
    }

    /** A task at a position: its innermost block (null at top level) and the block vars in scope. */
    record Slot(int pc, Task task, Frame frame, Map<String, Object> scopeVars) {
    }

    private final List<Slot> slots = new ArrayList<>();

    private Program() {
    }

    static Program of(List<Step> steps) {
        Program p = new Program();
        p.lay(steps, null, Map.of());
        return p;
    }

    int size() {
        return slots.size();
    }

    Slot slot(int pc) {
        return slots.get(pc);
    }

    private void lay(List<Step> steps, Frame parent, Map<String, Object> vars) {
        for (Step s : steps) {
            if (s instanceof Task t) {
                slots.add(new Slot(slots.size(), t, parent, vars));
                continue;
            }
            Block b = (Block) s;
            Map<String, Object> inner = new LinkedHashMap<>(vars);
            inner.putAll(b.vars());
            inner = java.util.Collections.unmodifiableMap(inner);
            // the frame's bounds are known only once its parts are laid out; lay them with a
            // placeholder frame, then put the real one in their slots
            int start = slots.size();
            Frame probe = new Frame(start, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, parent);
            lay(b.block(), probe, inner);
            int rescueStart = slots.size();
            lay(b.rescue(), probe, inner);
            int alwaysStart = slots.size();
            lay(b.always(), probe, inner);
            Frame f = new Frame(start, rescueStart, alwaysStart, slots.size(), parent);
            for (int i = start; i < slots.size(); i++) {
                Slot sl = slots.get(i);
                slots.set(i, new Slot(i, sl.task(), reparent(sl.frame(), probe, f), sl.scopeVars()));
            }
        }
    }

    /** The frame chain of a slot with {@code from} replaced by {@code to}. */
    private static Frame reparent(Frame f, Frame from, Frame to) {
        if (f == null) return null;
        if (f == from) return to;
        return new Frame(f.blockStart(), f.rescueStart(), f.alwaysStart(), f.end(), reparent(f.parent(), from, to));
    }

    /** Where a host that finished the task at {@code pc} without failing goes next. */
    int next(int pc) {
        int p = pc + 1;
        for (Frame f = slots.get(pc).frame(); f != null; f = f.parent()) {
            // leaving a block part normally skips its rescue
            if (f.inBlock(pc) && p >= f.rescueStart()) p = Math.max(p, f.alwaysStart());
        }
        return p;
    }
}
