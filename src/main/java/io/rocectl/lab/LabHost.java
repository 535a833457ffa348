package io.rocectl.lab;

import java.util.List;

/**
 * One lab host: a network namespace, a UTS namespace with its hostname, a mount namespace with its
 * own /etc and /root, held open by a holder process, and a real sshd on {@code mgmt0}.
 *
 * @param name      inventory name and hostname, e.g. {@code gpu01}
 * @param namespace network namespace name ({@code ip netns}), e.g. {@code rocelab-gpu01}
 * @param mgmtIp    address of {@code mgmt0}, where sshd listens
 * @param mgmtMac   MAC of {@code mgmt0}
 * @param mgmtPeer  root-namespace end of the management veth (a port of the management bridge)
 * @param holderPid process holding the host's UTS and mount namespaces (enter it to see the host)
 * @param sshdPid   the listening sshd, 0 when stopped
 * @param nics      fabric NICs in rail order
 */
public record LabHost(String name, String namespace, String mgmtIp, String mgmtMac, String mgmtPeer,
                      long holderPid, long sshdPid, List<LabNic> nics) {

    public LabHost {
        nics = List.copyOf(nics);
    }

    public LabHost withPids(long holder, long sshd) {
        return new LabHost(name, namespace, mgmtIp, mgmtMac, mgmtPeer, holder, sshd, nics);
    }

    /** The NIC with that interface name; InputError naming the known ones otherwise. */
    public LabNic nic(String nicName) {
        for (LabNic n : nics) if (n.name().equals(nicName)) return n;
        List<String> known = nics.stream().map(LabNic::name).toList();
        throw new io.rocectl.error.InputError("option --nic", 0, 0, "host " + name + " has no NIC '" + nicName + "'"
                + io.rocectl.error.DidYouMean.hint(nicName, known) + "; it has " + String.join(", ", known));
    }
}
