package io.rocectl.probe;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Counts every failed pair exactly once: under the first fault (in the order the faults were
 * localised) whose claim takes it, or, for an IP failure explained by its reverse pair, under the
 * fault that took the reverse pair; what no fault takes is {@link Unexplained}. So the faults'
 * pair counts plus the unexplained pairs add up to the failed pairs, whatever the mix of faults
 * (two dead NICs share the pair between them; it is counted once). Pure.
 */
final class FaultAttribution {
    /** Examples kept per unexplained cause. */
    static final int EXAMPLES = 3;

    private FaultAttribution() {}

    /**
     * A fault, what it takes, and the failed pairs it explains without itemising them (the pairs of
     * an unreachable or unfinished source host).
     */
    record Claim(Fault fault, Predicate<Failure> takes, long unitemised) {}

    /** The faults with their exclusive pair counts, and the rest. */
    record Result(List<Fault> faults, List<Unexplained> unexplained) {}

    /**
     * @param failures  the itemised failed pairs
     * @param claims    the faults in the order they were localised, each with its claim
     * @param byReverse the IP failures explained by their reverse pair's failure
     */
    static Result of(List<Failure> failures, List<Claim> claims, Set<Failure> byReverse) {
        long[] counts = new long[claims.size()];
        for (int i = 0; i < claims.size(); i++) counts[i] = claims.get(i).unitemised();
        Map<String, Integer> takenBy = new HashMap<>();
        List<Failure> left = new ArrayList<>();
        for (Failure f : failures) {
            int at = first(claims, f);
            if (at >= 0) {
                counts[at]++;
                takenBy.put(key(f.pair().src(), f.pair().dst()), at);
            } else {
                left.add(f);
            }
        }
        Map<Cause, List<Failure>> rest = new EnumMap<>(Cause.class);
        for (Failure f : left) {
            Integer at = byReverse.contains(f) ? takenBy.get(key(f.pair().dst(), f.pair().src())) : null;
            if (at != null) counts[at]++;
            else rest.computeIfAbsent(f.cause(), c -> new ArrayList<>()).add(f);
        }
        List<Fault> faults = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            Fault f = claims.get(i).fault();
            faults.add(new Fault(f.scope(), f.host(), f.nic(), f.cause(), f.peer(), counts[i]));
        }
        List<Unexplained> unexplained = new ArrayList<>();
        rest.forEach((c, fs) -> unexplained.add(new Unexplained(c, fs.size(),
                fs.stream().limit(EXAMPLES).map(FaultAttribution::example).toList())));
        return new Result(List.copyOf(faults), List.copyOf(unexplained));
    }

    private static int first(List<Claim> claims, Failure f) {
        for (int i = 0; i < claims.size(); i++) if (claims.get(i).takes().test(f)) return i;
        return -1;
    }

    private static String key(NicEndpoint s, NicEndpoint d) {
        return s.key() + ">" + d.key();
    }

    private static String example(Failure f) {
        return f.pair().src().key() + " -> " + f.pair().dst().key() + " (" + f.detail() + ")";
    }

    /** Whether the failure's pair has {@code key} ({@code host:nic}) at either end. */
    static Predicate<Failure> touching(String key) {
        return f -> f.pair().src().key().equals(key) || f.pair().dst().key().equals(key);
    }

    /** Whether the failure's pair has {@code host} at either end. */
    static Predicate<Failure> touchingHost(String host) {
        return f -> f.pair().src().host().equals(host) || f.pair().dst().host().equals(host);
    }
}
