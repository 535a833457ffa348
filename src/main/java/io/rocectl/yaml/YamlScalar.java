package io.rocectl.yaml;

import org.yaml.snakeyaml.nodes.ScalarNode;

/** A scalar as written (its text; {@link YamlFile#value} gives its typed value). */
public final class YamlScalar extends YamlNode {
    YamlScalar(YamlFile file, ScalarNode raw) {
        super(file, raw);
    }

    public String getValue() { return ((ScalarNode) raw).getValue(); }
}
