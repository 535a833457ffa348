package io.rocectl.fact;

/** A command's output could not be parsed (a tool too old, or unexpected output). */
public class FactParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FactParseException(String message, Throwable cause) { super(message, cause); }
    public FactParseException(String message) { super(message); }
}
