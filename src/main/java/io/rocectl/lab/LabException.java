package io.rocectl.lab;

/** The lab could not do what was asked (a command failed, the machine is not suitable): one-line message. */
public class LabException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LabException(String message) { super(message); }
    public LabException(String message, Throwable cause) { super(message, cause); }
}
