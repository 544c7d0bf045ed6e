package dev.fleetfix.transport;

import dev.fleetfix.Secret;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How SSH connections are made, for every host of a run.
 *
 * @param knownHostsOverride a known_hosts file used for hosts that set no {@code known_hosts_file},
 *     instead of {@code ~/.ssh/known_hosts}
 * @param acceptNewHostKeys trust a host seen for the first time and record its key (OpenSSH's
 *     {@code StrictHostKeyChecking=accept-new}); a changed key is refused all the same
 * @param connectTimeout how long connecting, the SSH handshake and authentication may take
 * @param passphraseEnv the environment variable holding the passphrase of encrypted private keys
 * @param password the login password asked for on the terminal ({@code -k}), for hosts whose inventory sets no
 *     {@code ansible_password}; it is never written anywhere, nor sent to the connection holder
 * @param passphrasePrompt asks for an encrypted key's passphrase when no {@code passphraseEnv} is given: present only
 *     when a terminal is; a key is asked for once per run
 * @param certificateFiles user certificates named by the ssh config's {@code CertificateFile} for the host, offered
 *     with the key each certifies, as OpenSSH does (besides each key's own {@code KEY-cert.pub})
 */
// the withers of a component (withAcceptNewHostKeys, withConnectTimeout, ...) are generated, and validate as the
// constructor does
@RecordBuilder
public record SshOptions(
        Optional<Path> knownHostsOverride,
        boolean acceptNewHostKeys,
        Duration connectTimeout,
        Optional<String> passphraseEnv,
        Optional<Secret> password,
        Optional<SecretPrompt> passphrasePrompt,
        List<Path> certificateFiles)
        implements SshOptionsBuilder.With {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    /** Options without a prompted password nor certificate files of the ssh config. */
    public SshOptions(
            Optional<Path> knownHostsOverride,
            boolean acceptNewHostKeys,
            Duration connectTimeout,
            Optional<String> passphraseEnv) {
        this(
                knownHostsOverride,
                acceptNewHostKeys,
                connectTimeout,
                passphraseEnv,
                Optional.empty(),
                Optional.empty(),
                List.of());
    }

    public SshOptions {
        certificateFiles = List.copyOf(certificateFiles);
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(passphrasePrompt, "passphrasePrompt");
        Objects.requireNonNull(knownHostsOverride, "knownHostsOverride");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(passphraseEnv, "passphraseEnv");
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connectTimeout must be positive, was " + connectTimeout);
        }
        passphraseEnv.ifPresent(name -> {
            if (name.isBlank()) {
                throw new IllegalArgumentException("passphraseEnv must name an environment variable, was blank");
            }
        });
    }

    /** Strict host key checking against {@code ~/.ssh/known_hosts}, 10 s connect timeout. */
    public static SshOptions defaults() {
        return new SshOptions(Optional.empty(), false, DEFAULT_CONNECT_TIMEOUT, Optional.empty());
    }

    public SshOptions withKnownHosts(Path file) {
        return withKnownHostsOverride(Optional.of(file));
    }

    /** These options with the password asked for on the terminal ({@code -k}). */
    public SshOptions withPassword(Secret value) {
        return withPassword(Optional.of(value));
    }

    /** These options asking on the terminal for the passphrase of an encrypted key. */
    public SshOptions withPassphrasePrompt(SecretPrompt prompt) {
        return withPassphrasePrompt(Optional.of(prompt));
    }
}
