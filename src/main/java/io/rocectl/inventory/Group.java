package io.rocectl.inventory;

import java.util.List;
import java.util.Map;

/**
 * A group as written in the inventory file.
 *
 * @param name group name
 * @param vars variables set on the group in the inventory file ({@code [g:vars]}, YAML
 *     {@code vars:}); {@code group_vars/} files are kept apart, see {@link Inventory#varsFor}
 * @param hosts hosts listed directly in the group, in file order
 * @param children names of the direct child groups, in file order
 */
public record Group(String name, Map<String, Object> vars, List<String> hosts, List<String> children) {
    public Group {
        vars = Inventory.frozen(vars);
        hosts = List.copyOf(hosts);
        children = List.copyOf(children);
    }
}
