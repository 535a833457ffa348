package io.rocectl.inventory;

import io.rocectl.error.InputError;
import java.io.StringReader;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * One YAML file read as a node tree with marks (for {@code file:line:col} errors) plus a safe
 * constructor for turning sub-trees into plain values. YAML 1.1 as Ansible reads it ({@code yes}
 * is a boolean), duplicate keys rejected, timestamps kept as strings. The only snakeyaml user of
 * this package.
 */
final class YamlDoc {
    private final String file;
    private final Node root;
    private final Values values;

    private YamlDoc(String file, Node root, Values values) {
        this.file = file;
        this.root = root;
        this.values = values;
    }

    /** Parses and validates (duplicate keys) a whole document; an empty file has a null root. */
    static YamlDoc parse(String file, String text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Values values = new Values(options);
        Yaml yaml = new Yaml(values, new Representer(new DumperOptions()), new DumperOptions(), options);
        try {
            Node root = yaml.compose(new StringReader(text));
            YamlDoc doc = new YamlDoc(file, root, values);
            if (root != null) doc.value(root);
            return doc;
        } catch (DuplicateKeyException e) {
            String key = e.getProblem().replaceFirst("^found duplicate key ", "");
            throw at(file, e.getProblemMark(), "duplicate key '" + key + "'");
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String what = e.getProblem() != null ? e.getProblem() : e.getContext();
            throw at(file, m, "YAML syntax error: " + what);
        } catch (YAMLException e) {
            throw new InputError(file, 0, 0, "YAML error: " + e.getMessage());
        }
    }

    Node root() {
        return root;
    }

    String file() {
        return file;
    }

    /** The plain Java value of a node (Map, List, String, Integer, Boolean, Double, null...). */
    Object value(Node node) {
        try {
            return values.construct(node);
        } catch (DuplicateKeyException e) {
            String key = e.getProblem().replaceFirst("^found duplicate key ", "");
            throw at(file, e.getProblemMark(), "duplicate key '" + key + "'");
        } catch (YAMLException e) {
            throw error(node, "YAML error: " + e.getMessage());
        }
    }

    /** Entries of a mapping with merge keys ({@code <<}) applied. */
    List<NodeTuple> entries(MappingNode node) {
        values.flatten(node);
        return node.getValue();
    }

    static boolean isNull(Node node) {
        return node == null || Tag.NULL.equals(node.getTag());
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
        return at(file, node == null ? null : node.getStartMark(), message);
    }

    private static InputError at(String file, Mark mark, String message) {
        if (mark == null) return new InputError(file, 0, 0, message);
        return new InputError(file, mark.getLine() + 1, mark.getColumn() + 1, message);
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
