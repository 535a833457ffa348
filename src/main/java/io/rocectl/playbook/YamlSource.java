package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlReader;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

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
    public record Parsed(YamlSource source, YamlNode root) {}

    public String file() { return doc.file(); }

    public Mark mark(YamlNode n) {
        return new Mark(doc.file(), n.line(), n.column());
    }

    public InputError error(YamlNode n, String message) {
        return doc.error(n, message);
    }

    /** The Java value of a node: String, Boolean, Integer/Long, Double, List, Map, or null. */
    public Object value(YamlNode n) {
        return doc.value(n);
    }

    public String scalar(YamlNode n, String what) {
        if (!(n instanceof YamlScalar s)) throw error(n, what + " must be a string, not a " + kind(n));
        return s.getValue();
    }

    public YamlMapping mapping(YamlNode n, String what) {
        if (!(n instanceof YamlMapping m)) throw error(n, what + " must be a mapping, not a " + kind(n));
        return m;
    }

    public YamlSequence sequence(YamlNode n, String what) {
        if (!(n instanceof YamlSequence s)) throw error(n, what + " must be a list, not a " + kind(n));
        return s;
    }

    public static String kind(YamlNode n) {
        if (n instanceof YamlMapping) return "mapping";
        if (n instanceof YamlSequence) return "list";
        return "scalar '" + ((YamlScalar) n).getValue() + "'";
    }
}
