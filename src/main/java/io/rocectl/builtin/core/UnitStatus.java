package io.rocectl.builtin.core;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A systemd unit's state as {@code systemctl show -p Id -p LoadState -p ActiveState -p SubState
 * -p UnitFileState UNIT} prints it ({@code Key=value} lines, in any order).
 *
 * @param id            the unit's full name ({@code sshd.service})
 * @param loadState     {@code loaded}, {@code not-found}, {@code masked}, ...
 * @param activeState   {@code active}, {@code inactive}, {@code failed}, {@code activating}, ...
 * @param subState      {@code running}, {@code dead}, {@code exited}, ...
 * @param unitFileState {@code enabled}, {@code disabled}, {@code static}, {@code masked}, ... or empty
 */
public record UnitStatus(String id, String loadState, String activeState, String subState, String unitFileState) {

    /** Unit file states for which {@code systemctl is-enabled} exits 0 (systemctl(1)). */
    private static final Set<String> ENABLED = Set.of("enabled", "enabled-runtime", "static", "alias", "indirect",
            "generated", "transient");
    /** States whose enablement {@code systemctl enable/disable} cannot change. */
    private static final Set<String> FIXED = Set.of("static", "generated", "transient");

    public static UnitStatus parse(String out) {
        Map<String, String> m = new HashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) m.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
        }
        return new UnitStatus(m.getOrDefault("Id", ""), m.getOrDefault("LoadState", ""),
                m.getOrDefault("ActiveState", ""), m.getOrDefault("SubState", ""), m.getOrDefault("UnitFileState", ""));
    }

    public boolean found() { return !loadState.equals("not-found") && !loadState.isEmpty(); }

    /** Running or on its way there (so "started" has nothing to do). */
    public boolean running() {
        return Set.of("active", "activating", "reloading", "refreshing").contains(activeState);
    }

    public boolean enabled() {
        return ENABLED.contains(unitFileState) && !unitFileState.equals("indirect") && !unitFileState.equals("alias");
    }

    public boolean enablementFixed() { return FIXED.contains(unitFileState); }

    public boolean masked() {
        return unitFileState.startsWith("masked") || loadState.equals("masked");
    }
}
