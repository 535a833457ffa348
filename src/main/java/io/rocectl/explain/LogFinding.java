package io.rocectl.explain;

/**
 * One distinct event found in a log.
 *
 * @param explanation what it is (id, layer, meaning, next command); {@code matched} is from the first line
 * @param count       number of lines it was found on
 * @param firstLine   1-based number of the first line it was found on
 * @param firstText   that line (cut to {@link LogExplainer#MAX_SHOWN} characters)
 * @param seen        the distinct addresses (peer, GIDs) named on its lines, in order, at most
 *                    {@link LogExplainer#MAX_SEEN}
 */
public record LogFinding(Explanation explanation, long count, long firstLine, String firstText,
                      java.util.List<LogAddresses.Seen> seen) {
    public LogFinding {
        seen = java.util.List.copyOf(seen);
    }
}
