package io.rocectl.module;

/** A module cannot do its job on this host: the task fails with this message. */
public class ModuleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ModuleException(String message) { super(message); }
    public ModuleException(String message, Throwable cause) { super(message, cause); }
}
