package io.rocectl.inventory;

import java.nio.file.Path;
import java.util.List;

/**
 * How to reach one host, from its merged inventory variables. A null field means "not set in
 * the inventory": the caller applies command-line options or defaults. Read from
 * {@code rocectl_*} variables first, then {@code ansible_*}; relative paths are resolved against
 * the inventory file's directory and a leading {@code ~/} against the user's home.
 *
 * @param address {@code rocectl_host} / {@code ansible_host} (/ {@code ansible_ssh_host}), else the inventory name
 * @param port {@code rocectl_port} / {@code ansible_port} (/ {@code ansible_ssh_port}), 1..65535
 * @param user {@code rocectl_user} / {@code ansible_user} (/ {@code ansible_ssh_user})
 * @param privateKeyFile {@code rocectl_ssh_private_key_file} / {@code ansible_ssh_private_key_file}
 * @param become {@code rocectl_become} / {@code ansible_become}, an Ansible boolean (yes/no, true/false, on/off, 1/0)
 * @param knownHostsFile {@code rocectl_known_hosts}: an OpenSSH known_hosts file for this host
 * @param unsupported names of variables that are set but which rocectl ignores (passwords:
 *     only key authentication and passwordless {@code sudo -n} are supported)
 */
public record HostConn(String address, Integer port, String user, Path privateKeyFile, Boolean become,
        Path knownHostsFile, List<String> unsupported) {
    public HostConn {
        unsupported = List.copyOf(unsupported);
    }
}
