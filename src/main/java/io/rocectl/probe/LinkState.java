package io.rocectl.probe;

/** {@code /sys/class/net/NIC/operstate} and {@code carrier} ("-" when unreadable). */
public record LinkState(String operstate, String carrier) {

    /** Up with carrier ({@code unknown} operstate counts as up when carrier is 1, as for dummy/veth). */
    public boolean up() {
        boolean oper = operstate.equals("up") || operstate.equals("unknown");
        return oper && !carrier.equals("0") && !operstate.equals("missing");
    }

    /** Parses {@code operstate:carrier}; null for {@code na}. */
    static LinkState parse(String s) {
        if (s.equals("na")) return null;
        int i = s.lastIndexOf(':');
        return i < 0 ? new LinkState(s, "-") : new LinkState(s.substring(0, i), s.substring(i + 1));
    }

    @Override
    public String toString() {
        return operstate + ":" + carrier;
    }
}
