package io.rocectl.op;

import io.rocectl.fact.NetworkFiles;
import java.util.List;
import java.util.Locale;

/**
 * The ways rocectl can persist a host's per-NIC rules and routes, in {@code roce_persist: auto}'s
 * detection order: each says whether it can carry every RoCE NIC of a host, and renders its files
 * (given no NICs, the files that remove rocectl's entries). {@link PersistPlanner} picks one and
 * asks every other to render nothing, so switching modes leaves nothing behind.
 */
public enum PersistBackend {
    /** netplan: every RoCE NIC defined in {@code /etc/netplan/*.yaml}. */
    NETPLAN {
        @Override public String unsupported(PersistRoutes p, NetworkFiles host) {
            return NetplanPersist.unsupported(p, host.files());
        }

        @Override public List<FileChange> render(PersistRoutes p, NetworkFiles host) {
            return NetplanPersist.render(p, host.files());
        }
    },
    /** NetworkManager: a keyfile per NIC. */
    NM {
        @Override public String unsupported(PersistRoutes p, NetworkFiles host) {
            return NmPersist.unsupported(p, host.files());
        }

        @Override public List<FileChange> render(PersistRoutes p, NetworkFiles host) {
            return NmPersist.render(p, host.files());
        }
    },
    /** systemd-networkd: a {@code .network} file matching each NIC and only it. */
    NETWORKD {
        @Override public String unsupported(PersistRoutes p, NetworkFiles host) {
            return NetworkdPersist.unsupported(p, host.files());
        }

        @Override public List<FileChange> render(PersistRoutes p, NetworkFiles host) {
            return NetworkdPersist.render(p, host.files(), NetworkdPersist.inUse(host.files(), host.flag("networkd_enabled")));
        }
    },
    /** ifupdown: an {@code iface NIC inet} stanza per NIC. */
    IFUPDOWN {
        @Override public String unsupported(PersistRoutes p, NetworkFiles host) {
            return IfupdownPersist.unsupported(p, host.files());
        }

        @Override public List<FileChange> render(PersistRoutes p, NetworkFiles host) {
            return IfupdownPersist.render(p, host.files());
        }
    },
    /** The fallback: a boot-time {@code ip -batch} unit; carries any NIC. */
    SCRIPT {
        @Override public String unsupported(PersistRoutes p, NetworkFiles host) {
            return null;
        }

        @Override public List<FileChange> render(PersistRoutes p, NetworkFiles host) {
            return ScriptPersist.render(p, host.flags().getOrDefault("ip", "/sbin/ip"));
        }
    };

    /** Why this back end cannot carry every NIC of {@code p} on this host; null when it can. */
    public abstract String unsupported(PersistRoutes p, NetworkFiles host);

    /**
     * The files this back end wants for {@code p} ({@code p.none()}: the files without rocectl's entries).
     *
     * @throws IllegalStateException when a file cannot be edited safely
     */
    public abstract List<FileChange> render(PersistRoutes p, NetworkFiles host);

    /** The {@code roce_persist} value naming it. */
    public String mode() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The back end a {@code roce_persist} value names; null for {@code auto} or an unknown value. */
    public static PersistBackend of(String mode) {
        for (PersistBackend b : values()) if (b.mode().equals(mode)) return b;
        return null;
    }
}
