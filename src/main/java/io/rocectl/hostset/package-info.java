/**
 * Compact host sets in the ClusterShell / pdsh style: {@code gpu[01-16,18],mgmt1}.
 *
 * <p>{@link io.rocectl.hostset.NodeSet#expand(String)} turns a folded expression (also Ansible's
 * {@code gpu[01:32]} ranges) into names; {@link io.rocectl.hostset.NodeSet#fold(java.util.Collection)}
 * turns names back into the compact form that reporters print. Pure JDK, no I/O.
 */
package io.rocectl.hostset;
