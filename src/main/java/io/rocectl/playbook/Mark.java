package io.rocectl.playbook;

/** A place in a file: where a play, task or value came from (1-based). */
public record Mark(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
