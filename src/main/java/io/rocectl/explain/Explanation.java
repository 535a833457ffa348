package io.rocectl.explain;

import io.rocectl.probe.Layer;

/**
 * What an error line means.
 *
 * @param id      stable id of the catalogue entry
 * @param matched the text that matched
 * @param layer   the layer the error comes from
 * @param meaning what it means
 * @param next    the command to run next (look one layer lower)
 */
public record Explanation(String id, String matched, Layer layer, String meaning, String next) {}
