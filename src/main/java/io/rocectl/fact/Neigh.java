package io.rocectl.fact;

import java.util.List;

/** One IPv4 neighbour (ARP) entry; {@code lladdr} is "" for INCOMPLETE/FAILED entries. */
public record Neigh(String dst, String dev, String lladdr, List<String> state) {
    public Neigh {
        state = List.copyOf(state);
    }

    public boolean permanent() {
        return state.contains("PERMANENT");
    }
}
