/**
 * {@code rocectl lab}: a local GPU-cluster network in Linux namespaces with real sshd per host
 * that reproduces the RoCE single-subnet failure (wrong egress port, ARP flux) faithfully.
 *
 * <p>Entry points: {@link io.rocectl.lab.Lab} (up/down/status/exec/break), {@link io.rocectl.lab.LabState}
 * (the JSON state file other code reads to find hosts, namespaces, NICs and PIDs). Rendering and
 * parsing ({@link io.rocectl.lab.NftRules}, {@link io.rocectl.lab.SshdConfig},
 * {@link io.rocectl.lab.LabFiles}, {@link io.rocectl.lab.NetworkdEmulation},
 * {@link io.rocectl.lab.SystemdUnits}, the emulated RDMA tree of {@link io.rocectl.lab.RdmaEmulation}) are
 * pure functions tested from fixtures.
 */
package io.rocectl.lab;
