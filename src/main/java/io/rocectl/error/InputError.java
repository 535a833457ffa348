package io.rocectl.error;

/**
 * Bad user input (options, inventory, playbook, vars file): reported as one line naming the
 * place and the token, before any host is contacted. Maps to exit code 5.
 */
public final class InputError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final int line;
    private final int column;

    /** @param file the file (or "option --x"), may be null; line/column are 1-based, 0 when unknown */
    public InputError(String file, int line, int column, String message) {
        super(message);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    public InputError(String message) {
        this(null, 0, 0, message);
    }

    public String file() { return file; }
    public int line() { return line; }
    public int column() { return column; }

    /** {@code file:line:col: message}, dropping the parts that are unknown. */
    public String oneLine() {
        StringBuilder sb = new StringBuilder();
        if (file != null) {
            sb.append(file);
            if (line > 0) {
                sb.append(':').append(line);
                if (column > 0) sb.append(':').append(column);
            }
            sb.append(": ");
        }
        return sb.append(getMessage()).toString();
    }

    @Override
    public String toString() { return oneLine(); }
}
