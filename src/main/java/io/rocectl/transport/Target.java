package io.rocectl.transport;

import java.nio.file.Path;
import java.util.List;

/**
 * Where and how to log in to one host, resolved from inventory variables and options.
 *
 * @param name         inventory name
 * @param address      address or DNS name to connect to
 * @param keyFiles     private keys to offer, in order
 * @param knownHosts   the known_hosts file to check host keys against
 */
public record Target(String name, String address, int port, String user, List<Path> keyFiles,
                     Path knownHosts, HostKeyChecking hostKeyChecking) {
    public Target {
        keyFiles = List.copyOf(keyFiles);
    }
}
