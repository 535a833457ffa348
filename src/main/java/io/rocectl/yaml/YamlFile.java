package io.rocectl.yaml;

import io.rocectl.error.InputError;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.List;

/**
 * One parsed YAML document: its node tree (every node keeps its line and column) and the plain
 * Java values of sub-trees (String, Boolean, Integer/Long/BigInteger, Double, List, Map, null;
 * timestamps as strings).
 */
public final class YamlFile {
    private final String file;
    private final Node root;
    private final Values values;

    YamlFile(String file, Node root, LoaderOptions opts) {
        this.file = file;
        this.root = root;
        this.values = new Values(opts);
    }

    public String file() { return file; }

    /** The document's root node, null for an empty document. */
    public Node root() { return root; }

    /** The plain value of the whole document (null when empty). */
    public Object value() {
        return root == null ? null : value(root);
    }

    /** The plain Java value of a node. */
    public Object value(Node node) {
        try {
            return values.construct(node);
        } catch (DuplicateKeyException e) {
            String key = e.getProblem().replaceFirst("^found duplicate key ", "");
            throw YamlReader.at(file, e.getProblemMark(), "duplicate key '" + key + "'");
        } catch (YAMLException e) {
            throw error(node, "bad value: " + YamlReader.firstLine(e.getMessage()));
        }
    }

    /** Entries of a mapping with merge keys ({@code <<}) applied. */
    public List<NodeTuple> entries(MappingNode node) {
        values.flatten(node);
        return node.getValue();
    }

    /** 1-based line of a node. */
    public int line(Node n) { return n.getStartMark().getLine() + 1; }

    /** 1-based column of a node. */
    public int column(Node n) { return n.getStartMark().getColumn() + 1; }

    public InputError error(Node node, String message) {
        return YamlReader.at(file, node == null ? null : node.getStartMark(), message);
    }

    public static boolean isNull(Node node) {
        return node == null || Tag.NULL.equals(node.getTag());
    }

    /** Safe constructor exposing construction of sub-trees; timestamps stay strings. */
    private static final class Values extends SafeConstructor {
        Values(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }

        Object construct(Node node) {
            return constructDocument(node);
        }

        void flatten(MappingNode node) {
            flattenMapping(node);
        }
    }
}
