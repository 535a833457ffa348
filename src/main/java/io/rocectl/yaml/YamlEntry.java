package io.rocectl.yaml;

/** One key and its value in a mapping. */
public record YamlEntry(YamlNode getKeyNode, YamlNode getValueNode) {
}
