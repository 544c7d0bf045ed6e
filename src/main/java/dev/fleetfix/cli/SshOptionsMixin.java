package dev.fleetfix.cli;

import dev.fleetfix.transport.SshOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** SSH connection options shared by every command that reaches hosts. */
public final class SshOptionsMixin {

    @Option(
            names = "--accept-new-host-keys",
            description = "Trust hosts seen for the first time and record their keys in known_hosts"
                    + " (OpenSSH accept-new). A changed key is always refused.")
    boolean acceptNewHostKeys;

    @Option(
            names = "--known-hosts",
            paramLabel = "FILE",
            description = "known_hosts file for hosts without known_hosts_file (default: ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(
            names = "--connect-timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = DurationConverter.class,
            description = "How long connecting and logging in to a host may take, e.g. 10s, 500ms, 2m"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout = SshOptions.DEFAULT_CONNECT_TIMEOUT;

    @Option(
            names = "--key-passphrase-env",
            paramLabel = "VAR",
            description = "Environment variable holding the passphrase of encrypted private keys.")
    String passphraseEnv;

    public SshOptions toOptions() {
        return new SshOptions(
                Optional.ofNullable(knownHosts),
                acceptNewHostKeys,
                connectTimeout,
                Optional.ofNullable(passphraseEnv).filter(v -> !v.isBlank()));
    }
}
