package io.rocectl.transport;

import java.util.Locale;

/** How unknown and changed host keys are treated. */
public enum HostKeyChecking {
    /** Refuse unknown and changed keys (the default). */
    STRICT,
    /** Record unknown keys in known_hosts, refuse changed ones. */
    ACCEPT_NEW,
    /** Accept anything: only when explicitly asked. */
    OFF;

    public static HostKeyChecking parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "strict", "yes", "true" -> STRICT;
            case "accept-new", "accept_new" -> ACCEPT_NEW;
            case "off", "no", "false" -> OFF;
            default -> throw new IllegalArgumentException(
                    "host key checking must be strict, accept-new or off, not '" + s + "'");
        };
    }
}
