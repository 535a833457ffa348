package io.rocectl.template;

/**
 * A template or expression could not be rendered (undefined variable, syntax error). A template
 * text's failure also carries the error alone ({@link #detail}) and the line of the text it
 * happened on ({@link #line}), so a template file's error can name FILE:LINE instead of the text.
 */
public final class TemplateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String detail;
    private final int line;

    public TemplateException(String message) {
        this(message, message, 0);
    }

    /**
     * @param detail the error without the quoted template
     * @param line   the 1-based line of the template text, 0 when not known
     */
    public TemplateException(String message, String detail, int line) {
        super(message);
        this.detail = detail;
        this.line = line;
    }

    /** The error without the quoted template text. */
    public String detail() {
        return detail;
    }

    /** The line of the template text the error happened on (1-based), 0 when not known. */
    public int line() {
        return line;
    }
}
