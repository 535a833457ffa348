package io.rocectl.fact;

/**
 * The {@code SSH_CONNECTION} variable: client address and port, server (local) address and
 * port. The server address is the management interface's address.
 */
public record SshConnectionVar(String clientIp, int clientPort, String serverIp, int serverPort) {
    /**
     * Parses "client cport server sport"; null when unset or malformed; a port number that is out
     * of 0..65535 is refused ({@link FactParseException}), not read as some other port.
     */
    public static SshConnectionVar parse(String text) {
        String[] p = text.strip().split("\\s+");
        if (p.length != 4) return null;
        if (!p[1].matches("\\d{1,30}") || !p[3].matches("\\d{1,30}")) return null;
        return new SshConnectionVar(p[0], HostNumbers.text("SSH_CONNECTION client port", p[1], 0, 65535), p[2],
                HostNumbers.text("SSH_CONNECTION server port", p[3], 0, 65535));
    }
}
