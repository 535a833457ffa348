package io.rocectl.template;

/** A template or expression could not be rendered (undefined variable, syntax error). */
public final class TemplateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TemplateException(String message) { super(message); }
}
