package io.rocectl.probe;

/** A failed pair: the lowest failing layer's cause, with the evidence. */
public record Failure(ProbePair pair, Cause cause, String detail) {
    public Layer layer() {
        return cause.layer();
    }
}
