package io.rocectl.inventory;

import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlReader;
import java.util.List;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * One YAML file read through the one {@link YamlReader} (limits, duplicate keys, YAML 1.1 as
 * Ansible reads it, timestamps kept as strings) as a node tree with marks, for
 * {@code file:line:col} errors.
 */
final class YamlDoc {
    private final YamlFile doc;

    private YamlDoc(YamlFile doc) {
        this.doc = doc;
    }

    /** Parses and validates (limits, duplicate keys) a whole document; an empty file has a null root. */
    static YamlDoc parse(String file, String text) {
        YamlDoc d = new YamlDoc(YamlReader.parse(file, text));
        if (d.root() != null) d.value(d.root());
        return d;
    }

    Node root() {
        return doc.root();
    }

    String file() {
        return doc.file();
    }

    /** The plain Java value of a node (Map, List, String, Integer, Boolean, Double, null...). */
    Object value(Node node) {
        return doc.value(node);
    }

    /** Entries of a mapping with merge keys ({@code <<}) applied. */
    List<NodeTuple> entries(MappingNode node) {
        return doc.entries(node);
    }

    static boolean isNull(Node node) {
        return YamlFile.isNull(node);
    }

    /** A scalar's text, or null for a non-scalar. */
    static String text(Node node) {
        return node instanceof ScalarNode s ? s.getValue() : null;
    }

    /** "a mapping", "a list", "a string '..'" for messages. */
    static String describe(Node node) {
        if (isNull(node)) return "nothing";
        if (node instanceof MappingNode) return "a mapping";
        if (node instanceof SequenceNode) return "a list";
        return "'" + ((ScalarNode) node).getValue() + "'";
    }

    InputError error(Node node, String message) {
        return doc.error(node, message);
    }
}
