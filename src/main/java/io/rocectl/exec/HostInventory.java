package io.rocectl.exec;

import java.util.List;
import java.util.Map;

/** What the engine needs of an inventory. */
public interface HostInventory {
    /** Hosts matching a pattern, in inventory order; bad patterns throw InputError. */
    List<String> resolve(String pattern);

    /** The host's variables after inventory precedence. */
    Map<String, Object> varsFor(String host);

    /** Group name to member hosts (including {@code all}). */
    Map<String, List<String>> groups();

    /**
     * Whether the name is Ansible's implicit localhost here ({@code localhost}, {@code 127.0.0.1},
     * {@code ::1} the inventory does not define): one host whatever it is called.
     */
    default boolean isImplicitLocalhost(String name) {
        return false;
    }
}
