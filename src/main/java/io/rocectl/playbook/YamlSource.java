package io.rocectl.playbook;

import io.rocectl.error.InputError;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A YAML file read as a node tree (so every value keeps its line and column), with YAML 1.1
 * typing as Ansible assumes ({@code yes} is true), duplicate keys rejected and alias/size limits.
 */
public final class YamlSource {
    private final String file;
    private final Constructor constructor;

    private YamlSource(String file, LoaderOptions opts) {
        this.file = file;
        this.constructor = new Constructor(opts);
    }

    /** Parses a file; null when the document is empty. */
    public static Parsed parse(Path path, String displayName) {
        LoaderOptions opts = options();
        YamlSource src = new YamlSource(displayName, opts);
        Node root;
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            root = new Yaml(opts).compose(r);
        } catch (MarkedYAMLException e) {
            org.yaml.snakeyaml.error.Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw new InputError(displayName, m == null ? 0 : m.getLine() + 1, m == null ? 0 : m.getColumn() + 1,
                    "YAML syntax error: " + firstLine(e.getProblem() != null ? e.getProblem() : e.getMessage()));
        } catch (YAMLException e) {
            throw new InputError(displayName, 0, 0, "YAML error: " + firstLine(e.getMessage()));
        } catch (IOException e) {
            throw new InputError(displayName, 0, 0, "cannot read: " + e.getMessage());
        }
        if (root != null) src.checkDuplicates(root);
        return new Parsed(src, root);
    }

    /** A parsed document: its root node and the source for marks and values. */
    public record Parsed(YamlSource source, Node root) {}

    private static LoaderOptions options() {
        LoaderOptions o = new LoaderOptions();
        o.setAllowDuplicateKeys(false);
        o.setMaxAliasesForCollections(100);
        o.setCodePointLimit(16 * 1024 * 1024);
        o.setNestingDepthLimit(100);
        return o;
    }

    public String file() { return file; }

    public Mark mark(Node n) {
        return new Mark(file, n.getStartMark().getLine() + 1, n.getStartMark().getColumn() + 1);
    }

    public InputError error(Node n, String message) {
        Mark m = mark(n);
        return new InputError(file, m.line(), m.column(), message);
    }

    /** The Java value of a node: String, Boolean, Integer/Long, Double, List, Map, or null. */
    public Object value(Node n) {
        try {
            return constructor.construct(n);
        } catch (YAMLException e) {
            throw error(n, "bad value: " + firstLine(e.getMessage()));
        }
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

    private void checkDuplicates(Node n) {
        if (n instanceof MappingNode m) {
            Set<String> seen = new HashSet<>();
            for (NodeTuple t : m.getValue()) {
                if (t.getKeyNode() instanceof ScalarNode k) {
                    if (!k.getValue().equals("<<") && !seen.add(k.getValue())) {
                        throw error(k, "duplicate key '" + k.getValue() + "'");
                    }
                }
                checkDuplicates(t.getValueNode());
            }
        } else if (n instanceof SequenceNode s) {
            for (Node c : s.getValue()) checkDuplicates(c);
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int i = s.indexOf('\n');
        return (i < 0 ? s : s.substring(0, i)).trim();
    }

    private static final class Constructor extends SafeConstructor {
        Constructor(LoaderOptions o) {
            super(o);
        }

        Object construct(Node n) {
            return constructObject(n);
        }
    }
}
