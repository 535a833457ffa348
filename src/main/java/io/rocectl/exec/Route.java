package io.rocectl.exec;

import io.rocectl.playbook.TaskOptions;

import java.util.Map;
import java.util.Set;

/**
 * Where one task runs for one host, as Ansible decides it: on the host itself, or on the
 * {@code delegate_to} host (then the delegate's connection variables apply, the task keeps the
 * original host's variables); over SSH or locally. The connection type is, highest first, the
 * {@code ansible_connection} (or {@code rocectl_connection}) variable of the host that is
 * connected to, the task's (block's, play's) {@code connection} keyword, then ssh. Pure.
 *
 * @param host  the host connected to (the delegate, or the task's host)
 * @param local run on this machine instead of over SSH
 */
record Route(String host, boolean local) {
    /** Ansible's ssh-like connection types, all run over rocectl's SSH. */
    private static final Set<String> SSH = Set.of("ssh", "smart", "paramiko", "paramiko_ssh");

    /**
     * @param self          the task's host
     * @param delegate      the rendered {@code delegate_to}, or null
     * @param hostVars      the task's variables on its host
     * @param delegateVars  the delegate's inventory variables (empty for a host outside the inventory)
     * @throws IllegalArgumentException for a connection type rocectl does not have
     */
    static Route of(String self, String delegate, TaskOptions opts, Map<String, Object> hostVars,
                    Map<String, Object> delegateVars) {
        boolean delegated = delegate != null && !delegate.equals(self);
        Map<String, Object> v = delegated ? delegateVars : hostVars;
        Object type = v.get("rocectl_connection");
        if (type == null) type = v.get("ansible_connection");
        if (type == null) type = opts.connection();
        String t = type == null ? "ssh" : String.valueOf(type).strip();
        if (!t.equals("local") && !SSH.contains(t)) {
            throw new IllegalArgumentException("connection '" + t + "' is not supported by rocectl (ssh or local)");
        }
        return new Route(delegated ? delegate : self, t.equals("local"));
    }
}
