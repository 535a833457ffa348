package io.rocectl.cli;

import io.rocectl.error.InputError;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a private key file before any host is contacted: a public key ({@code .pub}) is refused
 * with a clear message, and a key others may read is used with one warning (OpenSSH refuses it).
 */
final class PrivateKeys {
    private static final Set<Path> WARNED = ConcurrentHashMap.newKeySet();

    private PrivateKeys() {}

    /**
     * @param where what named the file (an option, or a host's variable), for the message
     * @param mustExist whether an unreadable file is an error here (else it is left to the connection)
     */
    static void check(Path key, String where, boolean mustExist) {
        if (!Files.isReadable(key)) {
            if (mustExist) throw new InputError(where, 0, 0, "cannot read private key " + key);
            return;
        }
        if (isPublicKey(key)) {
            throw new InputError(key.toString(), 1, 1, "this is a public key (" + where + " needs the private key"
                    + (key.toString().endsWith(".pub") ? ", without .pub" : "") + ")");
        }
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(key);
            boolean open = p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ)
                    || p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE);
            if (open && WARNED.add(key.toAbsolutePath().normalize())) {
                System.err.println("[WARNING] private key " + key + " is accessible by others (mode "
                        + java.nio.file.attribute.PosixFilePermissions.toString(p) + "); chmod 600 it (OpenSSH refuses such a key)");
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no POSIX modes to judge
        }
    }

    static void check(Path key, String where) {
        check(key, where, true);
    }

    /** A one-line OpenSSH public key ("ssh-ed25519 AAAA... comment"), not a PEM/OpenSSH private key. */
    private static boolean isPublicKey(Path key) {
        try (BufferedReader r = Files.newBufferedReader(key, StandardCharsets.ISO_8859_1)) {
            String first = r.readLine();
            if (first == null) return false;
            return first.matches("(ssh-|ecdsa-sha2-|sk-)[A-Za-z0-9@.-]+ AAAA[A-Za-z0-9+/=]+( .*)?");
        } catch (IOException e) {
            return false;
        }
    }
}
