package io.rocectl.lab;

import java.nio.file.Path;

/** Pure: the sshd_config of one lab host. */
public final class SshdConfig {
    private SshdConfig() {}

    /**
     * @param listen  management address of the host
     * @param hostDir the host's directory (host key, pid file, authorized keys live there)
     */
    public static String render(String listen, Path hostDir) {
        return String.join("\n",
                "# rocectl lab host sshd (generated)",
                "ListenAddress " + listen,
                "Port 22",
                "HostKey " + hostDir.resolve("ssh_host_ed25519_key"),
                "PidFile " + hostDir.resolve("sshd.pid"),
                "AuthorizedKeysFile .ssh/authorized_keys",
                "PermitRootLogin prohibit-password",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UseDNS no",
                "UsePAM no",
                "StrictModes no",
                "PrintMotd no",
                "PrintLastLog no",
                "MaxStartups 200:30:400",
                "MaxSessions 64",
                "AcceptEnv LANG LC_*",
                "Subsystem sftp internal-sftp",
                "") ;
    }
}
