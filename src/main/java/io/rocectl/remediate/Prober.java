package io.rocectl.remediate;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the remediation loop needs from a probe run: a full pass, and a re-probe of the pairs a
 * pass found failed. {@link ProbeRunner} probes over SSH; tests give the loop a fake.
 */
public interface Prober {
    /**
     * A full pass over the pairs of {@code hosts} that touch {@code focus} (null = every pair).
     *
     * @param vars a host's variables (NIC selection settings)
     */
    ProbeRunner.Outcome probe(List<String> hosts, Collection<String> focus, Function<String, Map<String, Object>> vars)
            throws InterruptedException;

    /**
     * Re-probes the pairs that failed in {@code previous} (the others keep their result) and
     * refreshes what each verdict depends on on every host in {@code touched} (a fix ran there).
     */
    ProbeRunner.Outcome reprobeFailed(ProbeRunner.Outcome previous, Collection<String> touched) throws InterruptedException;
}
