package io.rocectl.yaml;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.NodeTuple;

import java.util.ArrayList;
import java.util.List;

/** A mapping: its entries in document order (merge keys as written; see {@link YamlFile#entries}). */
public final class YamlMapping extends YamlNode {
    YamlMapping(YamlFile file, MappingNode raw) {
        super(file, raw);
    }

    public List<YamlEntry> getValue() {
        List<YamlEntry> out = new ArrayList<>();
        for (NodeTuple t : ((MappingNode) raw).getValue()) {
            out.add(new YamlEntry(file.wrap(t.getKeyNode()), file.wrap(t.getValueNode())));
        }
        return out;
    }
}
