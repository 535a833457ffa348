package io.rocectl.yaml;

import io.rocectl.error.InputError;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;

import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One parsed YAML document: its node tree (every node keeps its line and column) and the plain
 * Java values of sub-trees (String, Boolean, Integer/Long/BigInteger, Double, List, Map, null;
 * timestamps as {@link Timestamp}, Python's date or datetime).
 */
public final class YamlFile {
    private final String file;
    private final Node root;
    private final Values values;
    private final Map<Node, YamlNode> wrapped = new IdentityHashMap<>();

    YamlFile(String file, Node root, LoaderOptions opts) {
        this.file = file;
        this.root = root;
        this.values = new Values(opts);
    }

    public String file() { return file; }

    /** The document's root node, null for an empty document. */
    public YamlNode root() { return root == null ? null : wrap(root); }

    Node rawRoot() { return root; }

    /** The one wrapper of a snakeyaml node (an alias and its anchor share it). */
    synchronized YamlNode wrap(Node n) {
        return wrapped.computeIfAbsent(n, x -> {
            if (x instanceof MappingNode m) return new YamlMapping(this, m);
            if (x instanceof SequenceNode s) return new YamlSequence(this, s);
            return new YamlScalar(this, (ScalarNode) x);
        });
    }

    /** The plain value of the whole document (null when empty). */
    public Object value() {
        return root == null ? null : value(root());
    }

    /** The plain Java value of a node. */
    public Object value(YamlNode node) {
        try {
            return values.construct(node.raw);
        } catch (DuplicateKeyException e) {
            String key = e.getProblem().replaceFirst("^found duplicate key ", "");
            throw YamlReader.at(file, e.getProblemMark(), "duplicate key '" + key + "'");
        } catch (org.yaml.snakeyaml.error.MarkedYAMLException e) {
            Node at = node.raw;
            String what = e.getProblem() != null ? e.getProblem() : e.getMessage();
            if (e.getProblemMark() != null) throw YamlReader.at(file, e.getProblemMark(), "bad value: " + YamlReader.firstLine(what));
            throw error(at, "bad value: " + YamlReader.firstLine(what));
        } catch (YAMLException e) {
            throw error(node, "bad value: " + YamlReader.firstLine(e.getMessage()));
        }
    }

    /** Entries of a mapping with merge keys ({@code <<}) applied. */
    public List<YamlEntry> entries(YamlMapping node) {
        values.flatten((MappingNode) node.raw);
        return node.getValue();
    }

    public InputError error(YamlNode node, String message) {
        return error(node == null ? null : node.raw, message);
    }

    InputError error(Node node, String message) {
        return YamlReader.at(file, node == null ? null : node.getStartMark(), message);
    }

    /** Safe constructor exposing construction of sub-trees; timestamps as PyYAML constructs them. */
    private static final class Values extends SafeConstructor {
        Values(LoaderOptions options) {
            super(options);
            this.yamlConstructors.put(Tag.TIMESTAMP, new org.yaml.snakeyaml.constructor.AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    String text = ((ScalarNode) node).getValue();
                    try {
                        return Timestamp.parse(text);
                    } catch (IllegalArgumentException e) {
                        throw new org.yaml.snakeyaml.constructor.ConstructorException(null, null,
                                e.getMessage(), node.getStartMark()) { };
                    }
                }
            });
            // Ansible's !unsafe: the scalar's text, never templated
            this.yamlConstructors.put(new Tag("!unsafe"), new org.yaml.snakeyaml.constructor.AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    if (!(node instanceof org.yaml.snakeyaml.nodes.ScalarNode sn)) {
                        throw new org.yaml.snakeyaml.constructor.ConstructorException(null, null,
                                "!unsafe applies to a string, not to a " + node.getNodeId(), node.getStartMark()) { };
                    }
                    return new Unsafe(sn.getValue());
                }
            });
        }

        Object construct(Node node) {
            return constructDocument(node);
        }

        void flatten(MappingNode node) {
            flattenMapping(node);
        }
    }
}
