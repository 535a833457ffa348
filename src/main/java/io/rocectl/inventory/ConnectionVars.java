package io.rocectl.inventory;

import io.rocectl.error.InputError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads {@link HostConn} from a host's merged variables ({@code rocectl_*} beats {@code ansible_*}). */
final class ConnectionVars {
    private static final List<String> PASSWORDS = List.of("ansible_password", "ansible_ssh_pass",
            "ansible_ssh_password", "ansible_become_password", "ansible_become_pass", "rocectl_password",
            "rocectl_become_password");

    private ConnectionVars() {}

    static HostConn of(Inventory inv, String host, Map<String, Object> vars) {
        Reader r = new Reader(inv, host, vars);
        String address = r.string("rocectl_host", "ansible_host", "ansible_ssh_host");
        Integer port = r.port("rocectl_port", "ansible_port", "ansible_ssh_port");
        String user = r.string("rocectl_user", "ansible_user", "ansible_ssh_user");
        Path key = r.path("rocectl_ssh_private_key_file", "ansible_ssh_private_key_file");
        Boolean become = r.bool("rocectl_become", "ansible_become");
        Path knownHosts = r.path("rocectl_known_hosts");
        List<String> unsupported = new ArrayList<>();
        for (String p : PASSWORDS) if (vars.get(p) != null) unsupported.add(p);
        return new HostConn(address == null ? host : address, port, user, key, become, knownHosts, unsupported);
    }

    /** Ansible's boolean(): yes/no, on/off, true/false, y/n, t/f, 1/0 (case-insensitive). */
    static Boolean ansibleBoolean(Object v) {
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) {
            if (n.doubleValue() == 1) return true;
            if (n.doubleValue() == 0) return false;
            return null;
        }
        switch (String.valueOf(v).strip().toLowerCase(Locale.ROOT)) {
            case "yes", "on", "true", "y", "t", "1", "1.0": return true;
            case "no", "off", "false", "n", "f", "0", "0.0": return false;
            default: return null;
        }
    }

    private static final class Reader {
        private final Inventory inv;
        private final String host;
        private final Map<String, Object> vars;

        Reader(Inventory inv, String host, Map<String, Object> vars) {
            this.inv = inv;
            this.host = host;
            this.vars = vars;
        }

        /** The first set variable among names: {name, value} or null. */
        private Object[] first(String... names) {
            for (String n : names) {
                Object v = vars.get(n);
                if (v != null) return new Object[] {n, v};
            }
            return null;
        }

        String string(String... names) {
            Object[] f = first(names);
            if (f == null) return null;
            if (f[1] instanceof Map || f[1] instanceof List) throw bad(f, "must be a string");
            return f[1].toString();
        }

        Integer port(String... names) {
            Object[] f = first(names);
            if (f == null) return null;
            String s = f[1].toString().strip();
            if (!(f[1] instanceof Number || f[1] instanceof String) || !s.matches("\\d{1,5}")
                    || Integer.parseInt(s) < 1 || Integer.parseInt(s) > 65535) {
                throw bad(f, "must be a port number between 1 and 65535");
            }
            return Integer.parseInt(s);
        }

        Boolean bool(String... names) {
            Object[] f = first(names);
            if (f == null) return null;
            Boolean b = ansibleBoolean(f[1]);
            if (b == null) throw bad(f, "must be a boolean (yes/no, true/false)");
            return b;
        }

        Path path(String... names) {
            String s = string(names);
            if (s == null) return null;
            if (s.equals("~") || s.startsWith("~/")) {
                return Path.of(System.getProperty("user.home")).resolve(s.length() > 2 ? s.substring(2) : "");
            }
            Path p = Path.of(s);
            if (p.isAbsolute()) return p;
            Path base = inv.file().toAbsolutePath().getParent();
            if (inv.file().toFile().isDirectory()) base = inv.file().toAbsolutePath();
            return base.resolve(p).normalize();
        }

        private InputError bad(Object[] f, String what) {
            return new InputError(inv.file().toString(), 0, 0,
                    "host '" + host + "': " + f[0] + " " + what + ", got '" + f[1] + "'");
        }
    }
}
