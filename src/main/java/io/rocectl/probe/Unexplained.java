package io.rocectl.probe;

import java.util.List;

/**
 * Failed pairs of one cause that no localised fault explains: counted, with a few examples, so
 * that every failed pair is accounted for in the output.
 *
 * @param cause    their cause
 * @param pairs    how many
 * @param examples up to {@link FaultAttribution#EXAMPLES} of them, {@code "src -> dst (detail)"}
 */
public record Unexplained(Cause cause, long pairs, List<String> examples) {
    public Unexplained {
        examples = List.copyOf(examples);
    }
}
