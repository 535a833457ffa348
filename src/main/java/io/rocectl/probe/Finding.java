package io.rocectl.probe;

/**
 * One distinct event found in a log.
 *
 * @param explanation what it is (id, layer, meaning, next command); {@code matched} is from the first line
 * @param count       number of lines it was found on
 * @param firstLine   1-based number of the first line it was found on
 * @param firstText   that line (cut to {@link LogExplainer#MAX_SHOWN} characters)
 */
public record Finding(Explanation explanation, long count, long firstLine, String firstText) {}
