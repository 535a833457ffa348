package io.rocectl.yaml;

import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.List;

/** A list. */
public final class YamlSequence extends YamlNode {
    YamlSequence(YamlFile file, SequenceNode raw) {
        super(file, raw);
    }

    public List<YamlNode> getValue() {
        List<YamlNode> out = new ArrayList<>();
        for (Node n : ((SequenceNode) raw).getValue()) out.add(file.wrap(n));
        return out;
    }
}
