package io.rocectl.template;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Regular expressions from playbooks and hosts, run against a deadline: java.util.regex
 * backtracks, and {@code (.*x){12}y} on 3,000 characters never ends. The text is read through a
 * CharSequence that, every few thousand characters the engine reads, checks the clock and the
 * thread's interrupt flag and gives up with a {@link TemplateException}. The deadline is the
 * earlier of {@link #LIMIT_SECONDS} after the match started and the running task's deadline
 * ({@link #deadline}, the task's {@code timeout}).
 */
public final class BoundedRegex {
    /** The longest one regular expression operation may take. */
    public static final long LIMIT_SECONDS = 10;
    private static final ThreadLocal<Long> TASK_DEADLINE = new ThreadLocal<>();

    private BoundedRegex() {}

    /** A matcher of {@code p} on {@code text} that gives up at its deadline or when the thread is interrupted. */
    public static Matcher matcher(Pattern p, CharSequence text) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
        Long task = TASK_DEADLINE.get();
        boolean byTask = task != null && task - deadline < 0;
        return p.matcher(new Timed(text.toString(), byTask ? task : deadline, p.pattern(), byTask));
    }

    /**
     * Bounds this thread's regular expressions by {@code deadlineNanos} (System.nanoTime) as well,
     * until the returned scope is closed (a task's {@code timeout}).
     */
    public static Scope deadline(long deadlineNanos) {
        Long before = TASK_DEADLINE.get();
        TASK_DEADLINE.set(before != null && before - deadlineNanos < 0 ? before : deadlineNanos);
        return () -> {
            if (before == null) TASK_DEADLINE.remove();
            else TASK_DEADLINE.set(before);
        };
    }

    /** A deadline in force until closed. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    private static final class Timed implements CharSequence {
        private final String s;
        private final long deadline;
        private final String pattern;
        private final boolean byTask;
        private int reads;

        Timed(String s, long deadline, String pattern, boolean byTask) {
            this.s = s;
            this.deadline = deadline;
            this.pattern = pattern;
            this.byTask = byTask;
        }

        @Override
        public char charAt(int index) {
            if ((++reads & 0xFFF) == 0) check();
            return s.charAt(index);
        }

        private void check() {
            String re = pattern.length() > 60 ? pattern.substring(0, 57) + "..." : pattern;
            if (Thread.currentThread().isInterrupted()) {
                throw new TemplateException("regular expression '" + re + "' interrupted");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TemplateException("regular expression '" + re + "' on a text of " + s.length()
                        + " characters gave up after " + (byTask ? "the task's timeout" : LIMIT_SECONDS + " s")
                        + " (it backtracks without end: rewrite it, e.g. without nested repetition)");
            }
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return s.subSequence(start, end);
        }

        @Override
        public String toString() {
            return s;
        }
    }
}
