package io.rocectl.transport.ssh;

import io.rocectl.transport.HostKeyChecking;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.transport.verification.OpenSSHKnownHosts;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * OpenSSH known_hosts checking with the three policies; remembers why a key was refused so the
 * error can name the file and the line.
 */
final class KnownHostsVerifier extends OpenSSHKnownHosts {
    private static final Object APPEND_LOCK = new Object();
    private final HostKeyChecking policy;
    private volatile String refusal;

    KnownHostsVerifier(File file, HostKeyChecking policy) throws IOException {
        super(file);
        this.policy = policy;
    }

    String refusal() {
        return refusal;
    }

    @Override
    public boolean verify(String hostname, int port, PublicKey key) {
        if (policy == HostKeyChecking.OFF) return true;
        return super.verify(hostname, port, key);
    }

    @Override
    protected boolean hostKeyUnverifiableAction(String hostname, PublicKey key) {
        if (policy == HostKeyChecking.ACCEPT_NEW) {
            String line = hostname + " " + KeyType.fromKey(key) + " "
                    + Base64.getEncoder().encodeToString(keyBlob(key)) + "\n";
            synchronized (APPEND_LOCK) {
                try {
                    File f = getFile();
                    if (f.getParentFile() != null) Files.createDirectories(f.getParentFile().toPath());
                    Files.writeString(f.toPath(), line, StandardCharsets.UTF_8,
                            StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                } catch (IOException e) {
                    refusal = "cannot record the new host key of " + hostname + " in " + getFile() + ": " + e.getMessage();
                    return false;
                }
            }
            return true;
        }
        refusal = "host key of " + hostname + " (" + KeyType.fromKey(key) + ") is not in " + getFile()
                + " (use --host-key-checking accept-new to record it)";
        return false;
    }

    @Override
    protected boolean hostKeyChangedAction(String hostname, PublicKey key) {
        refusal = "HOST KEY CHANGED for " + hostname + ": the " + KeyType.fromKey(key) + " key offered does not match "
                + getFile() + lineRef(hostname) + " (remove that line if the host was legitimately reinstalled)";
        return false;
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
