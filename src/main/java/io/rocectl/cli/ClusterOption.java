package io.rocectl.cli;

import picocli.CommandLine.Option;

/** {@code --cluster NAME}, for the commands that keep state (health samples, remediation history). */
public final class ClusterOption {
    @Option(names = "--cluster", paramLabel = "NAME",
            description = "The cluster the state (health samples, history) is kept for, under ROOT/clusters/NAME "
                    + "(default: the inventory's cluster_name variable, else a name derived from the inventory's path). "
                    + "Paths given with --state-dir, --health-state-dir or --history are used as given.")
    String cluster;

    /** The state scope of this run's inventory. */
    StateScope scope(Fleet fleet, InventoryOptions inv) {
        return StateScope.of(cluster, fleet.inventory(), inv.sources());
    }
}
