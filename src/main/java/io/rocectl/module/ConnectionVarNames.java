package io.rocectl.module;

import java.util.List;

/**
 * The connection variables rocectl reads from the inventory only (where and as whom it logs in:
 * address, port, user, key, known hosts, become). Set anywhere else (play, block or task vars, vars files,
 * {@code -e}, {@code set_fact}, {@code include_vars}) they would move Ansible's login and not
 * rocectl's, so they are refused there.
 */
public final class ConnectionVarNames {
    public static final List<String> NAMES = List.of("ansible_host", "ansible_ssh_host", "ansible_port",
            "ansible_ssh_port", "ansible_user", "ansible_ssh_user", "ansible_ssh_private_key_file", "ansible_become",
            "rocectl_host", "rocectl_port", "rocectl_user", "rocectl_ssh_private_key_file", "rocectl_known_hosts",
            "rocectl_become");

    private ConnectionVarNames() {}

    /** Why {@code name} is refused outside the inventory. */
    public static String refused(String name) {
        return "'" + name + "' is not supported here by rocectl: where and as whom it logs in (address, port, user, "
                + "key, become) comes from the inventory, or -u/--user, --private-key, -b/--become and the become keyword";
    }
}
