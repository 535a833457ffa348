package io.rocectl.yaml;

import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * A node of a parsed document with its place (1-based line and column); one of
 * {@link YamlScalar}, {@link YamlSequence}, {@link YamlMapping}. An alias is the node it names.
 */
public abstract sealed class YamlNode permits YamlScalar, YamlSequence, YamlMapping {
    final YamlFile file;
    final Node raw;

    YamlNode(YamlFile file, Node raw) {
        this.file = file;
        this.raw = raw;
    }

    public int line() { return raw.getStartMark().getLine() + 1; }

    public int column() { return raw.getStartMark().getColumn() + 1; }

    /** Whether a node is absent or YAML null ({@code ~}, {@code null}, nothing). */
    public static boolean isNull(YamlNode n) {
        return n == null || Tag.NULL.equals(n.raw.getTag());
    }
}
