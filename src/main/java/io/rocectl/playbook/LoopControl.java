package io.rocectl.playbook;

/** {@code loop_control}: the loop variable's name, an index variable, and a label for output. */
public record LoopControl(String loopVar, String indexVar, String label) {
    public static final LoopControl DEFAULT = new LoopControl("item", null, null);
}
