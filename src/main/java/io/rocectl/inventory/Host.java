package io.rocectl.inventory;

import java.util.Map;

/**
 * A host as written in the inventory file.
 *
 * @param name the inventory name ({@code inventory_hostname})
 * @param vars variables defined directly on the host in the inventory file (INI inline
 *     {@code k=v}, YAML host mapping), typed; not merged with groups or {@code host_vars/}
 */
public record Host(String name, Map<String, Object> vars) {
    public Host {
        vars = Inventory.frozen(vars);
    }
}
