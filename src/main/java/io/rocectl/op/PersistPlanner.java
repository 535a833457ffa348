package io.rocectl.op;

import io.rocectl.fact.NetworkFiles;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Chooses how to persist a host's per-NIC rules and routes and plans the file changes (pure).
 * <p>Detection order ({@code roce_persist: auto}): netplan (every RoCE NIC defined in
 * {@code /etc/netplan/*.yaml}), NetworkManager (a keyfile per NIC), systemd-networkd (a
 * {@code /etc/systemd/network/*.network} file matching each NIC and only it), ifupdown (an
 * {@code iface NIC inet} stanza per NIC), else the script fallback. A forced mode that cannot
 * carry the NICs is an error. Whatever the mode, the other mechanisms' rocectl entries are
 * removed (switching modes leaves nothing behind), and networkd's
 * {@code ManageForeignRoutingPolicyRules=no} is written whenever networkd is in use.
 * <p>Follow-ups: {@code systemctl daemon-reload} when unit files changed and systemd is PID 1,
 * {@code nmcli connection reload} when keyfiles changed and NetworkManager runs; both only with
 * {@code systemctl: auto} (never in a lab whose namespaces share the machine's systemd).
 */
public final class PersistPlanner {
    /** {@code roce_persist} values: {@code auto}, then each {@link PersistBackend} in detection order. */
    public static final List<String> MODES = java.util.stream.Stream.concat(java.util.stream.Stream.of("auto"),
            java.util.Arrays.stream(PersistBackend.values()).map(PersistBackend::mode)).toList();

    private PersistPlanner() {}

    /** As {@link #plan(NetworkFiles, PersistRoutes, String, boolean, boolean)} without a confirmed removal. */
    public static PersistPlan plan(NetworkFiles host, PersistRoutes p, String mode, boolean systemctl) {
        return plan(host, p, mode, systemctl, false);
    }

    /**
     * @param removeConfirmed the user asked for the removal ({@code state: absent} or
     *                        {@code roce_nics: []} with {@code roce_confirm_remove: true}); without
     *                        it, no NICs is an error: rocectl's files are never deleted because a
     *                        selection came out empty
     */
    public static PersistPlan plan(NetworkFiles host, PersistRoutes p, String mode, boolean systemctl,
                                   boolean removeConfirmed) {
        if (p.nics().isEmpty() && !removeConfirmed) {
            throw new IllegalArgumentException("no RoCE NICs to persist: refusing to remove rocectl's persistence "
                    + "(only state: absent or roce_nics: [] with roce_confirm_remove: true removes it)");
        }
        if (!MODES.contains(mode)) throw new IllegalArgumentException("roce_persist must be one of " + MODES + ", got '" + mode + "'");
        Map<String, String> files = host.files();
        List<String> notes = new ArrayList<>();
        PersistBackend chosen = PersistBackend.of(mode);
        String reason;
        if (chosen == null) {
            chosen = PersistBackend.SCRIPT;
            reason = "no network configuration carries every RoCE NIC; boot-time ip -batch unit";
            for (PersistBackend b : PersistBackend.values()) {
                if (b != PersistBackend.SCRIPT && !p.nics().isEmpty() && b.unsupported(p, host) == null) {
                    chosen = b;
                    reason = "every RoCE NIC is configured by " + b.mode();
                    break;
                }
            }
        } else {
            reason = "forced by roce_persist=" + mode;
        }
        PersistRoutes none = p.none();
        List<FileChange> want = new ArrayList<>();
        try {
            for (PersistBackend b : PersistBackend.values()) want.addAll(b.render(b == chosen ? p : none, host));
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("cannot persist with " + chosen.mode() + ": " + e.getMessage());
        }
        List<FileChange> changes = new ArrayList<>();
        for (FileChange c : want) {
            if (c.isLink()) {
                String have = host.links().get(c.path());
                if (!Objects.equals(c.linkTarget().isEmpty() ? null : c.linkTarget(), have)) changes.add(c);
            } else if (!Objects.equals(c.content(), files.get(c.path()))) {
                changes.add(c);
            }
        }
        List<String> commands = new ArrayList<>();
        boolean units = changes.stream().anyMatch(c -> c.path().startsWith("/etc/systemd/system/"));
        if (units) {
            if (!systemctl) notes.add("systemctl: never: unit files written, systemd not told");
            else if (host.flag("systemd")) commands.add("systemctl daemon-reload");
            else notes.add("systemd is not PID 1 here: the unit takes effect at the next boot");
        }
        boolean keyfiles = changes.stream().anyMatch(c -> NmPersist.isKeyfile(c.path()));
        if (keyfiles && systemctl && host.flag("nm_running") && host.flag("nmcli")) commands.add("nmcli connection reload");
        if (changes.stream().anyMatch(c -> c.path().equals(NetworkdPersist.CONF) && c.content() != null)) {
            notes.add("networkd reads ManageForeignRoutingPolicyRules at start: restart systemd-networkd in a maintenance "
                    + "window (or reboot) so it stops deleting foreign rules");
        }
        if (chosen == PersistBackend.NETPLAN && !changes.isEmpty()) notes.add("netplan: not applied now (live state is already right)");
        return new PersistPlan(chosen.mode(), reason, changes, commands, notes);
    }
}
