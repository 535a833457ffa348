package io.rocectl.transport.ssh;

import io.rocectl.fs.OwnFiles;
import io.rocectl.transport.HostKeyChecking;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.HostKeyVerifier;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenSSH known_hosts checking with the three policies. One instance is parsed once per file and
 * shared by every connection of a run (parsing the file per connection costs O(hosts^2) key
 * decodings: 1,000 hosts would decode a million keys); each connection verifies through its own
 * {@link Check}, which remembers why its key was refused so the error can name the file and line.
 * Keys recorded under {@code accept-new} are remembered for the rest of the run, so a reconnect
 * neither appends a second line nor accepts a different key for the same host. A key on an
 * {@code @revoked} line is refused in every mode, {@code off} included.
 */
final class KnownHostsVerifier extends OpenSSHKnownHosts {
    private static final Object APPEND_LOCK = new Object();
    private final HostKeyChecking policy;
    /** Why the verification running on this thread refused its key (set by the action hooks). */
    private final ThreadLocal<String> refusal = new ThreadLocal<>();
    /** accept-new: "host keytype" -> base64 key recorded during this run. */
    private final Map<String, String> accepted = new ConcurrentHashMap<>();

    /** {@code @revoked} lines of the file: refused in every mode, whatever other lines say. */
    private final List<Revoked> revoked;
    /** off: "host keytype blob" already warned about in this run. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /** A {@code @revoked} line: its number and the key blob it revokes. */
    private record Revoked(int line, byte[] blob) {}

    KnownHostsVerifier(File file, HostKeyChecking policy) throws IOException {
        super(file);
        this.policy = policy;
        this.revoked = readRevoked(file);
    }

    /** A verifier for one connection, sharing this parsed file. */
    Check check() {
        return new Check();
    }

    /** One connection's view: delegates to the shared file and keeps its own refusal message. */
    final class Check implements HostKeyVerifier {
        private volatile String refused;

        @Override
        public boolean verify(String hostname, int port, PublicKey key) {
            refusal.remove();
            try {
                boolean ok = KnownHostsVerifier.this.verify(hostname, port, key);
                if (!ok) refused = refusal.get();
                return ok;
            } finally {
                refusal.remove();
            }
        }

        @Override
        public List<String> findExistingAlgorithms(String hostname, int port) {
            return KnownHostsVerifier.this.findExistingAlgorithms(hostname, port);
        }

        /** Why this connection's host key was refused, or null. */
        String refusal() {
            return refused;
        }
    }

    /**
     * A key on a {@code @revoked} line is refused in every mode (as OpenSSH does), whatever the host
     * pattern of that line and whatever other lines accept it; otherwise the file decides, and under
     * {@code off} an unknown or changed key is accepted with one warning per host and key.
     */
    @Override
    public boolean verify(String hostname, int port, PublicKey key) {
        byte[] blob = keyBlob(key);
        for (Revoked r : revoked) {
            if (Arrays.equals(r.blob(), blob)) {
                String host = port != 22 ? "[" + hostname + "]:" + port : hostname;
                refusal.set("host key for " + host + " (" + KeyType.fromKey(key) + ") is REVOKED in " + getFile() + ":"
                        + r.line() + "; refused whatever --host-key-checking says (a revoked key is never accepted)");
                return false;
            }
        }
        return super.verify(hostname, port, key);
    }

    @Override
    protected boolean hostKeyUnverifiableAction(String hostname, PublicKey key) {
        KeyType type = KeyType.fromKey(key);
        if (policy == HostKeyChecking.OFF) {
            warnOnce(hostname, key, "host key of " + hostname + " (" + type + ") is not in " + getFile()
                    + "; accepted only because --host-key-checking is off");
            return true;
        }
        if (policy == HostKeyChecking.ACCEPT_NEW) {
            String blob = Base64.getEncoder().encodeToString(keyBlob(key));
            String id = hostname + " " + type;
            String earlier = accepted.putIfAbsent(id, blob);
            if (earlier != null) {
                if (earlier.equals(blob)) return true;
                refusal.set("HOST KEY CHANGED for " + hostname + ": the " + type + " key offered differs from the one"
                        + " recorded in " + getFile() + lineRef(hostname) + " earlier in this run");
                return false;
            }
            synchronized (APPEND_LOCK) {
                try {
                    // 0600 in missing 0700 directories whatever the umask; never through a symlink
                    OwnFiles.append(getFile().toPath(), id + " " + blob + "\n", OwnFiles.PRIVATE);
                } catch (IOException e) {
                    accepted.remove(id, blob);
                    refusal.set("cannot record the new host key of " + hostname + " in " + getFile() + ": " + e.getMessage());
                    return false;
                }
            }
            return true;
        }
        refusal.set("host key of " + hostname + " (" + type + ") is not in " + getFile()
                + " (use --host-key-checking accept-new to record it)");
        return false;
    }

    @Override
    protected boolean hostKeyChangedAction(String hostname, PublicKey key) {
        if (policy == HostKeyChecking.OFF) {
            warnOnce(hostname, key, "HOST KEY CHANGED for " + hostname + ": the " + KeyType.fromKey(key)
                    + " key offered does not match " + getFile() + lineRef(hostname)
                    + "; accepted only because --host-key-checking is off");
            return true;
        }
        refusal.set("HOST KEY CHANGED for " + hostname + ": the " + KeyType.fromKey(key) + " key offered does not match "
                + getFile() + lineRef(hostname) + " (remove that line if the host was legitimately reinstalled)");
        return false;
    }

    private void warnOnce(String hostname, PublicKey key, String message) {
        if (warned.add(hostname + " " + Base64.getEncoder().encodeToString(keyBlob(key)))) {
            System.err.println("[WARNING] " + message);
        }
    }

    /** The {@code @revoked} lines of a known_hosts file (none when it does not exist). */
    private static List<Revoked> readRevoked(File file) throws IOException {
        List<Revoked> out = new ArrayList<>();
        if (!file.exists()) return out;
        List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String[] t = lines.get(i).trim().split("\\s+");
            if (t.length < 4 || !t[0].equals("@revoked")) continue;
            try {
                out.add(new Revoked(i + 1, Base64.getDecoder().decode(t[3])));
            } catch (IllegalArgumentException e) {
                // not a key: sshj reports the bad line its own way
            }
        }
        return out;
    }

    private String lineRef(String hostname) {
        List<Integer> lines = new ArrayList<>();
        try {
            EntryFactory factory = new EntryFactory();
            List<String> all = Files.readAllLines(getFile().toPath(), StandardCharsets.UTF_8);
            for (int i = 0; i < all.size(); i++) {
                String l = all.get(i).trim();
                if (l.isEmpty() || l.startsWith("#")) continue;
                KnownHostEntry e = factory.parseEntry(l);
                if (e != null && e.appliesTo(hostname)) lines.add(i + 1);
            }
        } catch (IOException | RuntimeException e) {
            return "";
        }
        if (lines.isEmpty()) return "";
        return ":" + lines.get(0) + (lines.size() > 1 ? " (and lines " + lines.subList(1, lines.size()) + ")" : "");
    }

    private static byte[] keyBlob(PublicKey key) {
        net.schmizz.sshj.common.Buffer.PlainBuffer b = new net.schmizz.sshj.common.Buffer.PlainBuffer();
        b.putPublicKey(key);
        return b.getCompactData();
    }
}
