package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlReader;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.nio.file.Path;

/**
 * A YAML file read as a node tree (so every value keeps its line and column) through the one
 * {@link YamlReader} (limits, duplicate keys, YAML 1.1 typing as Ansible assumes).
 */
public final class YamlSource {
    private final YamlFile doc;

    private YamlSource(YamlFile doc) {
        this.doc = doc;
    }

    /** Parses a file; the root is null when the document is empty. */
    public static Parsed parse(Path path, String displayName) {
        YamlFile doc = YamlReader.read(path, displayName);
        return new Parsed(new YamlSource(doc), doc.root());
    }

    /** A parsed document: its root node and the source for marks and values. */
    public record Parsed(YamlSource source, Node root) {}

    public String file() { return doc.file(); }

    public Mark mark(Node n) {
        return new Mark(doc.file(), doc.line(n), doc.column(n));
    }

    public InputError error(Node n, String message) {
        return doc.error(n, message);
    }

    /** The Java value of a node: String, Boolean, Integer/Long, Double, List, Map, or null. */
    public Object value(Node n) {
        return doc.value(n);
    }

    public String scalar(Node n, String what) {
        if (!(n instanceof ScalarNode s)) throw error(n, what + " must be a string, not a " + kind(n));
        return s.getValue();
    }

    public MappingNode mapping(Node n, String what) {
        if (!(n instanceof MappingNode m)) throw error(n, what + " must be a mapping, not a " + kind(n));
        return m;
    }

    public SequenceNode sequence(Node n, String what) {
        if (!(n instanceof SequenceNode s)) throw error(n, what + " must be a list, not a " + kind(n));
        return s;
    }

    public static String kind(Node n) {
        if (n instanceof MappingNode) return "mapping";
        if (n instanceof SequenceNode) return "list";
        return "scalar '" + ((ScalarNode) n).getValue() + "'";
    }
}
