package io.rocectl.inventory;

import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlReader;
import java.util.List;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

/**
 * One YAML file read through the one {@link YamlReader} (limits, duplicate keys, YAML 1.1 as
 * Ansible reads it, timestamps as {@link io.rocectl.yaml.Timestamp}) as a node tree with marks, for
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

    YamlNode root() {
        return doc.root();
    }

    String file() {
        return doc.file();
    }

    /** The plain Java value of a node (Map, List, String, Integer, Boolean, Double, null...). */
    Object value(YamlNode node) {
        return doc.value(node);
    }

    /** Entries of a mapping with merge keys ({@code <<}) applied. */
    List<YamlEntry> entries(YamlMapping node) {
        return doc.entries(node);
    }

    static boolean isNull(YamlNode node) {
        return YamlNode.isNull(node);
    }

    /** A scalar's text, or null for a non-scalar. */
    static String text(YamlNode node) {
        return node instanceof YamlScalar s ? s.getValue() : null;
    }

    /** "a mapping", "a list", "a string '..'" for messages. */
    static String describe(YamlNode node) {
        if (isNull(node)) return "nothing";
        if (node instanceof YamlMapping) return "a mapping";
        if (node instanceof YamlSequence) return "a list";
        return "'" + ((YamlScalar) node).getValue() + "'";
    }

    InputError error(YamlNode node, String message) {
        return doc.error(node, message);
    }
}
