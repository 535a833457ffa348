package io.rocectl.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** SSH options shared by run, shell, probe, remediate and doctor. */
public final class ConnectionOptions {
    @Option(names = {"-u", "--user"}, paramLabel = "USER", description = "Remote user (default: inventory, ~/.ssh/config, then current user).")
    String user;

    @Option(names = "--private-key", paramLabel = "FILE", description = "Private key file (ed25519, ECDSA or RSA).")
    Path privateKey;

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "known_hosts file (default: inventory rocectl_known_hosts, then ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(names = "--host-key-checking", paramLabel = "MODE", defaultValue = "strict",
            completionCandidates = Completions.HostKeyChecking.class,
            description = "strict (default), accept-new or off.")
    String hostKeyChecking;

    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", defaultValue = "10", description = "Connect timeout (default ${DEFAULT-VALUE}).")
    int connectTimeout;

    @Option(names = "--command-timeout", paramLabel = "SECONDS", defaultValue = "300", description = "Per-command timeout (default ${DEFAULT-VALUE}).")
    int commandTimeout;

    @Option(names = {"-f", "--forks"}, paramLabel = "N", defaultValue = "64", description = "Hosts in flight at once (default ${DEFAULT-VALUE}).")
    int forks;

    @Option(names = "--connect-retries", paramLabel = "N", defaultValue = "2", description = "Connect attempts per host (default ${DEFAULT-VALUE}).")
    int connectAttempts;
}
