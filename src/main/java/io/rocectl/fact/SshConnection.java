package io.rocectl.fact;

/**
 * The {@code SSH_CONNECTION} variable: client address and port, server (local) address and
 * port. The server address is the management interface's address.
 */
public record SshConnection(String clientIp, int clientPort, String serverIp, int serverPort) {
    /** Parses "client cport server sport"; null when unset or malformed. */
    public static SshConnection parse(String text) {
        String[] p = text.strip().split("\\s+");
        if (p.length != 4) return null;
        try {
            return new SshConnection(p[0], Integer.parseInt(p[1]), p[2], Integer.parseInt(p[3]));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
