/**
 * Ansible-style inventories: INI and YAML files with {@code group_vars/} and {@code host_vars/}
 * beside them ({@link io.rocectl.inventory.InventoryLoader}), variable precedence as Ansible's
 * ({@link io.rocectl.inventory.Inventory#varsFor(String)}), connection settings
 * ({@link io.rocectl.inventory.HostConn}), host patterns for {@code hosts:} and {@code --limit}
 * ({@link io.rocectl.inventory.HostPattern}) and {@code ansible-inventory}-like output
 * ({@link io.rocectl.inventory.InventoryRender}). Bad input raises
 * {@link io.rocectl.error.InputError} naming file, line, column and the offending token.
 */
package io.rocectl.inventory;
