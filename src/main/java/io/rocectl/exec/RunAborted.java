package io.rocectl.exec;

import io.rocectl.playbook.Mark;

/**
 * A playbook error found while the run is under way that ends the whole run at once, as
 * ansible-playbook's {@code ERROR!} does: a changed task notifies a name (rendered from a
 * template) that no handler answers to. Nothing after it runs, handlers neither; the command
 * prints {@link #oneLine()} and exits 2 (Ansible exits 1).
 */
public final class RunAborted extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Where the task is written: {@code FILE:LINE:COL: }, or "" when not known. */
    private final String place;

    RunAborted(Mark where, String message) {
        super(message);
        this.place = where == null || where.file() == null ? ""
                : where.file() + ":" + where.line() + ":" + where.column() + ": ";
    }

    /** {@code FILE:LINE:COL: message}. */
    public String oneLine() {
        return place + getMessage();
    }
}
