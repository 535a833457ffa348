package io.rocectl.lab;

import io.rocectl.error.InputError;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What {@code rocectl lab up} is asked to build; {@link #validate()} checks it before anything exists.
 *
 * @param name    lab name: 1-10 of [a-z0-9], starting with a letter (it prefixes interface names, which
 *                must stay within 15 characters)
 * @param hosts   number of hosts (gpu01..)
 * @param nics    fabric NICs per host (ens1f0..)
 * @param fabric  the one subnet of all fabric NICs
 * @param mgmt    management subnet (root-namespace bridge + mgmt0 of each host)
 * @param netcfg  {@code none} or {@code networkd}
 * @param dir     state directory
 * @param slurm   whether to start a Slurm cluster (munged, slurmctld, one slurmd per host; see {@link SlurmLab})
 */
public record LabSpec(String name, int hosts, int nics, Cidr fabric, Cidr mgmt, String netcfg, Path dir, boolean slurm) {

    /** A spec without Slurm. */
    public LabSpec(String name, int hosts, int nics, Cidr fabric, Cidr mgmt, String netcfg, Path dir) {
        this(name, hosts, nics, fabric, mgmt, netcfg, dir, false);
    }

    public static final String DEFAULT_NAME = "rocelab";
    public static final String DEFAULT_FABRIC = "172.31.0.0/16";
    public static final String DEFAULT_MGMT = "10.251.0.0/16";
    public static final Path DEFAULT_ROOT = Path.of("/run/rocectl-lab");
    public static final List<String> NETCFGS = List.of("none", "networkd");
    /** A Linux bridge takes at most 1023 ports (BR_MAX_PORTS = 1024, port 0 unused). */
    public static final int MAX_BRIDGE_PORTS = 1023;
    public static final int MAX_HOSTS = 999;
    public static final int MAX_NICS = 32;

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]{0,9}");

    /** A spec with defaults for subnets, netcfg and directory. */
    public static LabSpec of(String name, int hosts, int nics) {
        return new LabSpec(name, hosts, nics, Cidr.parse(DEFAULT_FABRIC), Cidr.parse(DEFAULT_MGMT), "none",
                DEFAULT_ROOT.resolve(name));
    }

    public LabSpec withDir(Path d) { return new LabSpec(name, hosts, nics, fabric, mgmt, netcfg, d, slurm); }
    public LabSpec withNetcfg(String n) { return new LabSpec(name, hosts, nics, fabric, mgmt, n, dir, slurm); }
    public LabSpec withSubnets(Cidr f, Cidr m) { return new LabSpec(name, hosts, nics, f, m, netcfg, dir, slurm); }
    public LabSpec withSlurm(boolean on) { return new LabSpec(name, hosts, nics, fabric, mgmt, netcfg, dir, on); }

    /** Pure checks of the request itself (the machine is checked by {@link Preflight}). */
    public void validate() {
        if (!NAME.matcher(name).matches()) {
            throw new InputError("option --name", 0, 0, "lab name '" + name
                    + "' must be 1-10 characters of [a-z0-9] starting with a letter (it prefixes interface names)");
        }
        if (hosts < 1 || hosts > MAX_HOSTS) throw new InputError("option --hosts", 0, 0, "--hosts must be 1.." + MAX_HOSTS + ", got " + hosts);
        if (nics < 1 || nics > MAX_NICS) throw new InputError("option --nics", 0, 0, "--nics must be 1.." + MAX_NICS + ", got " + nics);
        if (!NETCFGS.contains(netcfg)) {
            throw new InputError("option --netcfg", 0, 0, "unknown --netcfg '" + netcfg + "', expected none or networkd"
                    + io.rocectl.error.DidYouMean.hint(netcfg, NETCFGS));
        }
        long ports = (long) hosts * nics;
        if (ports > MAX_BRIDGE_PORTS) {
            throw new InputError("option --hosts", 0, 0, hosts + " hosts x " + nics + " NICs = " + ports
                    + " switch ports, more than a Linux bridge takes (" + MAX_BRIDGE_PORTS + ")");
        }
        if (ports > fabric.size() - 2) {
            throw new InputError("option --subnet", 0, 0, hosts + " x " + nics + " = " + ports + " fabric addresses do not fit in "
                    + fabric + " (" + (fabric.size() - 2) + " usable)");
        }
        if (hosts + 1 > mgmt.size() - 2) {
            throw new InputError("option --mgmt-subnet", 0, 0, hosts + " hosts + 1 gateway do not fit in " + mgmt);
        }
        if (fabric.overlaps(mgmt)) {
            throw new InputError("option --subnet", 0, 0, "fabric subnet " + fabric + " overlaps management subnet " + mgmt);
        }
    }
}
