package io.rocectl.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** SSH options shared by run, shell, probe, remediate and doctor. */
public final class ConnectionOptions {
    /** The defaults, for picocli and for {@link RunFastPath}. */
    static final String HOST_KEY_CHECKING = "strict", CONNECT_TIMEOUT = "10", COMMAND_TIMEOUT = "300", FORKS = "64",
            CONNECT_RETRIES = "2";

    @Option(names = {"-u", "--user"}, paramLabel = "USER", description = "Remote user (default: inventory, ~/.ssh/config, then current user).")
    String user;

    @Option(names = "--private-key", paramLabel = "FILE", description = "Private key file (ed25519, ECDSA or RSA).")
    Path privateKey;

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "known_hosts file (default: inventory rocectl_known_hosts, then ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = "--host-key-checking", paramLabel = "MODE", defaultValue = HOST_KEY_CHECKING,
            completionCandidates = Completions.HostKeyChecking.class,
            description = "strict (default), accept-new or off.")
    String hostKeyChecking;

    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", defaultValue = CONNECT_TIMEOUT, description = "Connect timeout (default ${DEFAULT-VALUE}).")
    int connectTimeout;

    @Option(names = "--command-timeout", paramLabel = "SECONDS", defaultValue = COMMAND_TIMEOUT, description = "Per-command timeout (default ${DEFAULT-VALUE}).")
    int commandTimeout;

    @Option(names = {"-f", "--forks"}, paramLabel = "N", defaultValue = FORKS, description = "Hosts in flight at once (default ${DEFAULT-VALUE}).")
    int forks;

    @Option(names = "--connect-retries", paramLabel = "N", defaultValue = CONNECT_RETRIES, description = "Connect attempts per host (default ${DEFAULT-VALUE}).")
    int connectAttempts;
}
