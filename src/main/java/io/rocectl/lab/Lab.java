package io.rocectl.lab;

import io.rocectl.error.InputError;
import io.rocectl.transport.Cmd;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The lab's public operations: up, down, status, exec, break; and {@link #find} for other code. */
public final class Lab {
    private Lab() {}

    /** Default state directory of a lab name: {@code /run/rocectl-lab/<name>}; the name must be plain. */
    public static Path defaultDir(String name) {
        return LabSpec.DEFAULT_ROOT.resolve(plainName(name));
    }

    /**
     * The name, when it is a plain lab name (non-empty, only {@code [a-z0-9-]}, so never {@code ..}
     * or a path); InputError otherwise. Down, status, exec and break accept any such name (a lab up
     * creates a stricter subset), so that a name can never aim outside the state root.
     */
    public static String plainName(String name) {
        if (name == null || !name.matches("[a-z0-9-]{1,64}")) {
            throw new InputError("option --name", 0, 0, "lab name '" + name
                    + "' is not a plain name: only a-z, 0-9 and '-' (no '/', '..' or empty name)");
        }
        return name;
    }

    /** The running lab of that name (default directory); InputError when there is none. */
    public static LabState find(String name) {
        return LabState.load(defaultDir(name));
    }

    /** Builds the lab; on failure removes whatever it created and rethrows. */
    public static LabState up(LabSpec spec, PrintStream out) {
        return LabUp.up(spec, out);
    }

    /**
     * Removes the lab in {@code dir}: only what its state file says the lab created. Without a state
     * file, a directory that does not exist (or is empty) means the lab is not up: leftover links and
     * namespaces of that name are removed, no directory is. A directory that holds anything but no
     * state file, a symlink, or a path with {@code ..} is refused (InputError). Idempotent.
     */
    public static void down(String name, Path dir, PrintStream out) {
        plainName(name);
        Path d = LabDown.checkedDir(dir);
        Path f = d.resolve(LabState.FILE);
        if (Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                throw new InputError(f.toString(), 0, 0, "lab state file is not a regular file (a symlink?); refusing to act on it");
            }
            LabState s = LabDown.verified(LabState.load(d), d);
            Preflight.requireRoot("down");
            LabDown.down(s, out);
        } else {
            LabDown.downByName(name, d, out);
        }
    }

    public static void down(LabState s, PrintStream out) {
        LabDown.down(s, out);
    }

    /** Injects a fault; returns the updated state. */
    public static LabState breakHost(LabState s, String fault, String arg, String host, String nic, PrintStream out) {
        Preflight.requireRoot("break");
        return Faults.inject(s, fault, arg, host, nic, out);
    }

    /**
     * Runs a command inside a host exactly as an SSH login sees it (its network, mount and UTS
     * namespaces), with this process's stdin/stdout/stderr; returns the command's exit code.
     */
    public static int exec(LabState s, String host, List<String> command) {
        LabHost h = s.host(host);
        List<String> argv = Shell.concat(Shell.inHost(h), command.isEmpty() ? List.of("sh") : command);
        try {
            return new ProcessBuilder(argv).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new LabException("cannot run nsenter: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /** Runs a command in a host and captures it (for tests and the demo). */
    public static io.rocectl.transport.ExecResult run(LabState s, String host, List<String> command) {
        return Shell.run(Cmd.of(Shell.concat(Shell.inHost(s.host(host)), command)));
    }

    /** Hosts, NICs (with switch-port state) and whether each sshd is alive; false when something is down. */
    public static boolean status(LabState s, PrintStream out) {
        Map<String, String> port = new HashMap<>();
        if (LabDown.nsExists(s.switchNamespace())) {
            for (String line : Shell.run("ip", "-n", s.switchNamespace(), "-br", "link").stdout().split("\n")) {
                String[] t = line.trim().split("\\s+");
                if (t.length >= 2) port.put(t[0].split("@")[0], t[1]);
            }
        }
        int hostsN = s.hosts().size();
        out.printf("lab %s (%s): %d hosts x %d NICs, fabric %s, management %s, switch %s%s%n", s.name(), s.dir(), hostsN,
                hostsN == 0 ? 0 : s.hosts().get(0).nics().size(), s.fabric(), s.mgmt(), s.switchNamespace(),
                s.complete() ? "" : " (INCOMPLETE: bring-up did not finish)");
        boolean healthy = s.complete();
        for (LabHost h : s.hosts()) {
            boolean sshd = HostProcesses.alive(h.sshdPid());
            boolean holder = HostProcesses.alive(h.holderPid());
            healthy &= sshd && holder;
            List<String> nics = new ArrayList<>();
            for (LabNic n : h.nics()) {
                String st = port.getOrDefault(n.switchPort(), "MISSING");
                if (!st.equals("UP")) healthy = false;
                nics.add(n.name() + " " + n.ip() + " " + n.mac() + (st.equals("UP") ? "" : " link " + st.toLowerCase()));
            }
            out.printf("  %s ns=%s mgmt0=%s sshd=%s%s%n    %s%n", h.name(), h.namespace(), h.mgmtIp(),
                    sshd ? "up (pid " + h.sshdPid() + ")" : "DOWN", holder ? "" : " host process GONE",
                    String.join("\n    ", nics));
        }
        return healthy;
    }
}
