package dev.fleetfix.transport.ssh;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import dev.fleetfix.HomePaths;
import dev.fleetfix.KnownSecrets;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.FileStamp;
import dev.fleetfix.transport.LoginPassword;
import dev.fleetfix.transport.SecretPrompt;
import dev.fleetfix.transport.SshOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.userauth.UserAuthException;
import net.schmizz.sshj.userauth.keyprovider.KeyPairWrapper;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;
import net.schmizz.sshj.userauth.method.AuthKeyboardInteractive;
import net.schmizz.sshj.userauth.method.AuthMethod;
import net.schmizz.sshj.userauth.method.AuthPassword;
import net.schmizz.sshj.userauth.method.AuthPublickey;
import net.schmizz.sshj.userauth.method.PasswordResponseProvider;
import net.schmizz.sshj.userauth.password.PasswordFinder;
import net.schmizz.sshj.userauth.password.Resource;

/**
 * Who we log in as and with what: the login user, the known_hosts file, and the private keys (the
 * host's key file, else the default keys {@code ~/.ssh/id_ed25519}, {@code id_ecdsa}, {@code id_rsa}).
 *
 * <p>Without a key file, the keys of ssh-agent ({@code SSH_AUTH_SOCK}) are offered first, then the
 * default keys, as OpenSSH does; the ssh config's {@code CertificateFile} certificates go with the key each certifies. A
 * key with a certificate beside it ({@code id_ed25519-cert.pub}, as an SSH CA
 * issues it) is offered with its certificate first, then alone, as OpenSSH does: a host that does not trust the CA
 * may still know the key. With a password ({@link LoginPassword}), keyboard-interactive and then password
 * authentication follow the keys, in OpenSSH's order.
 */
final class SshLogin {

    static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private final String user;
    private final Path knownHosts;
    private final List<Path> keys;
    private final Path home;
    private final Optional<String> passphraseEnv;
    private final Map<String, String> env;
    private final Optional<SshAgent> agent;
    private final Optional<LoginPassword> password;
    private final Optional<SecretPrompt> prompt;
    /** Where the password may go: the host's own sshd, never its jump host. */
    private final String address;

    private final int port;

    /** The ssh config's {@code CertificateFile} certificates, each offered with the key it certifies. */
    private final List<Path> certificateFiles;

    private SshLogin(
            String user,
            Path knownHosts,
            List<Path> keys,
            Path home,
            Optional<String> passphraseEnv,
            Map<String, String> env,
            Optional<SshAgent> agent,
            Optional<LoginPassword> password,
            Optional<SecretPrompt> prompt,
            String address,
            int port,
            List<Path> certificateFiles) {
        this.certificateFiles = List.copyOf(certificateFiles);
        this.user = user;
        this.address = address;
        this.port = port;
        // a passphrase in the environment is what the user chose: the terminal is asked only without one
        this.prompt = passphraseEnv.isPresent() ? Optional.empty() : prompt;
        this.knownHosts = knownHosts;
        this.keys = List.copyOf(keys);
        this.home = home;
        this.passphraseEnv = passphraseEnv;
        this.env = env;
        // a key's passphrase is a secret of the run: an sshd or a host's command could say it back
        passphraseEnv.map(env::get).ifPresent(KnownSecrets::register);
        this.agent = agent;
        // revealed now, so that it is known to every output's scrubbing before any host can say it back
        password.ifPresent(p -> p.value().reveal());
        this.password = password;
    }

    static SshLogin of(Host host, SshOptions options) {
        return of(
                host,
                options,
                Path.of(System.getProperty("user.home")),
                System.getProperty("user.name"),
                System.getenv());
    }

    /** Resolves the login from the host, the options and the control node's home, user and environment. */
    static SshLogin of(Host host, SshOptions options, Path home, String localUser, Map<String, String> env) {
        String user = host.user().filter(u -> !u.isBlank()).orElse(localUser);
        Path knownHosts = host.knownHosts()
                .or(options::knownHostsOverride)
                .map(p -> expand(p, home))
                .orElse(home.resolve(".ssh").resolve("known_hosts"));
        List<Path> keys = new ArrayList<>();
        Optional<SshAgent> agent = Optional.empty();
        if (host.keyFile().isPresent()) {
            keys.add(expand(host.keyFile().get(), home));
        } else {
            agent = SshAgent.fromEnvironment(env);
            DEFAULT_KEYS.stream()
                    .map(name -> home.resolve(".ssh").resolve(name))
                    .filter(Files::isRegularFile)
                    .forEach(keys::add);
        }
        return new SshLogin(
                user,
                knownHosts,
                keys,
                home,
                options.passphraseEnv(),
                env,
                agent,
                LoginPassword.of(host, options),
                options.passphrasePrompt(),
                host.address(),
                host.port(),
                options.certificateFiles().stream().map(p -> expand(p, home)).toList());
    }

    /** {@code ~/x} in an inventory means the control node's home. */
    static Path expand(Path path, Path home) {
        return Path.of(HomePaths.expand(path.toString(), home));
    }

    String user() {
        return user;
    }

    boolean isRoot() {
        return "root".equals(user);
    }

    Path knownHosts() {
        return knownHosts;
    }

    /** The files this login trusts by: the known_hosts file and the key files offered. */
    List<Path> trustFiles() {
        List<Path> files = new ArrayList<>();
        files.add(knownHosts);
        for (Path key : keys) {
            files.add(key);
            UserCertificates.file(key).ifPresent(files::add);
        }
        files.addAll(certificateFiles);
        return files;
    }

    /** The keys offered, as a user would write them ({@code ~/.ssh/id_ed25519}). */
    List<String> keyNames() {
        List<String> names = new ArrayList<>();
        agent.ifPresent(a -> names.add("ssh-agent (" + a.socket() + ")"));
        certificateFiles.forEach(cert -> names.add("certificate " + SshFailures.tilde(cert, home)));
        for (Path key : keys) {
            UserCertificates.file(key).ifPresent(cert -> names.add("certificate " + SshFailures.tilde(cert, home)));
            names.add(SshFailures.tilde(key, home));
        }
        password.ifPresent(p -> names.add("password (" + p.source() + ")"));
        return names;
    }

    void authenticate(SSHClient ssh, String loginUser) throws IOException {
        ssh.auth(loginUser, methods(ssh, isTarget(ssh)));
    }

    /** Whether {@code ssh} is connected to the host itself, not to its jump host. */
    private boolean isTarget(SSHClient ssh) {
        try {
            return address.equals(ssh.getRemoteHostname()) && port == ssh.getRemotePort();
        } catch (RuntimeException e) {
            return false; // not connected
        }
    }

    /**
     * What is offered, in OpenSSH's order: the agent's keys, each key's certificate then the key, then, to the host
     * itself only ({@code target}), keyboard-interactive and password with the host's password. A jump host gets keys
     * only: ssh would ask for the bastion's own password.
     */
    List<AuthMethod> methods(SSHClient ssh, boolean target) throws IOException {
        List<AuthMethod> methods = new ArrayList<>(agentMethods());
        KeyUnusableException unusable = null;
        for (Path key : keys) {
            try {
                KeyPair pair = load(ssh, key);
                UserCertificates.of(key, pair.getPublic())
                        .ifPresent(cert -> methods.add(new AuthPublickey(new KeyPairWrapper(cert, pair.getPrivate()))));
                // CertificateFile: offered with the key it certifies, a certificate of no key offered is skipped
                for (Path file : certificateFiles) {
                    UserCertificates.read(file, pair.getPublic())
                            .ifPresent(cert ->
                                    methods.add(new AuthPublickey(new KeyPairWrapper(cert, pair.getPrivate()))));
                }
                methods.add(new AuthPublickey(new KeyPairWrapper(pair)));
            } catch (KeyUnusableException e) {
                unusable = unusable == null ? e : unusable;
            }
        }
        if (password.isPresent() && target) {
            PasswordFinder finder = fixed(password.get().value());
            methods.add(new AuthKeyboardInteractive(new PasswordResponseProvider(finder)));
            methods.add(new AuthPassword(finder));
        }
        if (methods.isEmpty()) {
            if (unusable != null) {
                throw unusable;
            }
            throw new KeyUnusableException(
                    "no private key: the host sets no ansible_ssh_private_key_file, no ssh-agent holds a key"
                            + " (SSH_AUTH_SOCK) and none of "
                            + String.join(
                                    ", ",
                                    DEFAULT_KEYS.stream()
                                            .map(k -> "~/.ssh/" + k)
                                            .toList())
                            + " exists",
                    null);
        }
        return methods;
    }

    /** The password, for SSHJ's methods: given once, never retried (a wrong one fails the host, as ssh does). */
    private static PasswordFinder fixed(Secret secret) {
        return new PasswordFinder() {
            @Override
            public char[] reqPassword(Resource<?> resource) {
                return secret.reveal().toCharArray();
            }

            @Override
            public boolean shouldRetry(Resource<?> resource) {
                return false;
            }
        };
    }

    /** One method per key the agent holds, when the host names no key file and an agent runs. */
    private List<AuthMethod> agentMethods() {
        if (agent.isEmpty()) {
            return List.of();
        }
        try {
            return agent.get().identities().stream()
                    .map(identity -> (AuthMethod) new AgentAuth(agent.get(), identity))
                    .toList();
        } catch (IOException e) {
            // An agent that cannot be reached is no reason to fail: the default keys may still do.
            return List.of();
        }
    }

    /** A key file as loaded once: its path, its stamp, and the passphrase it was opened with. */
    private record LoadedKey(Path file, Optional<FileStamp> stamp, Optional<String> passphrase) {}

    /**
     * Every host of a run logs in with the same key file, and loading one parses it and, for ed25519, derives the
     * public key from the private one (a scalar multiplication): once per process is enough. The pair is kept as
     * read, so a file changed mid-run is read again.
     */
    private static final Map<LoadedKey, KeyPair> LOADED = new ConcurrentHashMap<>();

    /** How many times a key file was read and decrypted in this process: for tests. */
    static final AtomicLong KEY_LOADS = new AtomicLong();

    /**
     * Hosts connecting at once would each ask for the same key's passphrase: a key asked for on the terminal is loaded
     * by one login at a time, and the next finds it loaded.
     */
    private static final Object PROMPTING = new Object();

    /** Loads and decrypts a key now, so a missing passphrase is reported as such, not as a refused login. */
    private KeyPair load(SSHClient ssh, Path key) throws KeyUnusableException {
        if (prompt.isEmpty()) {
            return loadOnce(ssh, key);
        }
        synchronized (PROMPTING) {
            return loadOnce(ssh, key);
        }
    }

    private KeyPair loadOnce(SSHClient ssh, Path key) throws KeyUnusableException {
        String shown = SshFailures.tilde(key, home);
        if (!Files.isReadable(key)) {
            throw new KeyUnusableException("private key file " + shown + " is missing or not readable", null);
        }
        AtomicBoolean asked = new AtomicBoolean();
        try {
            LoadedKey loaded =
                    new LoadedKey(key.toAbsolutePath().normalize(), FileStamp.of(key), passphraseEnv.map(env::get));
            KeyPair cached = LOADED.get(loaded);
            if (cached != null && loaded.stamp().isPresent()) {
                return cached;
            }
            KEY_LOADS.incrementAndGet();
            KeyProvider provider = ssh.loadKeys(key.toString(), passphrase(shown, asked));
            // SSHJ reads KEY-cert.pub, when there is one, as the key's public part: the plain key is kept, and the
            // certificate offered beside it (UserCertificates)
            PublicKey publicKey = provider.getPublic();
            if (publicKey instanceof Certificate<?> cert) {
                publicKey = cert.getKey();
            }
            // an immutable pair: the file's provider decrypts lazily and is not meant to be shared by threads
            KeyPair pair = new KeyPair(publicKey, provider.getPrivate());
            LOADED.put(loaded, pair);
            return pair;
        } catch (IOException | RuntimeException e) {
            String reason = asked.get()
                    ? "the passphrase typed does not decrypt it"
                    : passphraseEnv.isEmpty()
                            ? "it is encrypted or unreadable; give its passphrase with --key-passphrase-env VAR, or run"
                                    + " fleetfix on a terminal to be asked for it"
                            : env.get(passphraseEnv.get()) == null
                                    ? "it is encrypted or unreadable and environment variable " + passphraseEnv.get()
                                            + " (--key-passphrase-env) is not set"
                                    : "the passphrase in " + passphraseEnv.get() + " does not decrypt it";
            throw new KeyUnusableException("cannot use private key " + shown + ": " + reason, e);
        }
    }

    /** A private key that cannot be read or decrypted: a login problem, never retried. */
    static final class KeyUnusableException extends UserAuthException {
        KeyUnusableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The passphrase, when SSHJ finds the key encrypted: the named environment variable's, else the one typed on the
     * terminal, asked for as {@code ssh} asks ({@code Enter passphrase for key ~/.ssh/id_ed25519: }).
     */
    private PasswordFinder passphrase(String shown, AtomicBoolean asked) {
        return new PasswordFinder() {
            @Override
            public char[] reqPassword(Resource<?> resource) {
                if (passphraseEnv.isPresent()) {
                    return passphraseEnv.map(env::get).map(String::toCharArray).orElse(null);
                }
                if (prompt.isEmpty() || asked.getAndSet(true)) {
                    return null;
                }
                return prompt.get()
                        .ask("Enter passphrase for key " + shown + ": ")
                        .map(p -> p.reveal().toCharArray())
                        .orElse(null);
            }

            @Override
            public boolean shouldRetry(Resource<?> resource) {
                return false;
            }
        };
    }
}
