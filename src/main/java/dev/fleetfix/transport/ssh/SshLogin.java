package dev.fleetfix.transport.ssh;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.transport.SshOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.userauth.UserAuthException;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;
import net.schmizz.sshj.userauth.password.PasswordFinder;
import net.schmizz.sshj.userauth.password.Resource;

/**
 * Who we log in as and with what: the login user, the known_hosts file, and the private keys (the
 * host's key file, else the default keys {@code ~/.ssh/id_ed25519}, {@code id_ecdsa}, {@code id_rsa}).
 *
 * <p>ssh-agent is not used: SSHJ 0.40 has no agent client, and the only add-on (jsch-agent-proxy)
 * needs JNA or an external {@code nc}.
 */
final class SshLogin {

    static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private final String user;
    private final Path knownHosts;
    private final List<Path> keys;
    private final Path home;
    private final Optional<String> passphraseEnv;
    private final Map<String, String> env;

    private SshLogin(
            String user,
            Path knownHosts,
            List<Path> keys,
            Path home,
            Optional<String> passphraseEnv,
            Map<String, String> env) {
        this.user = user;
        this.knownHosts = knownHosts;
        this.keys = List.copyOf(keys);
        this.home = home;
        this.passphraseEnv = passphraseEnv;
        this.env = env;
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
        if (host.keyFile().isPresent()) {
            keys.add(expand(host.keyFile().get(), home));
        } else {
            DEFAULT_KEYS.stream()
                    .map(name -> home.resolve(".ssh").resolve(name))
                    .filter(Files::isRegularFile)
                    .forEach(keys::add);
        }
        return new SshLogin(user, knownHosts, keys, home, options.passphraseEnv(), env);
    }

    /** {@code ~/x} in an inventory means the control node's home. */
    static Path expand(Path path, Path home) {
        String text = path.toString();
        if (text.equals("~")) {
            return home;
        }
        if (text.startsWith("~/")) {
            return home.resolve(text.substring(2));
        }
        return path;
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

    /** The keys offered, as a user would write them ({@code ~/.ssh/id_ed25519}). */
    List<String> keyNames() {
        return keys.stream().map(k -> SshFailures.tilde(k, home)).toList();
    }

    void authenticate(SSHClient ssh, String loginUser) throws IOException {
        if (keys.isEmpty()) {
            throw new UserAuthException("no private key: the host sets no ansible_ssh_private_key_file and none of "
                    + String.join(
                            ", ", DEFAULT_KEYS.stream().map(k -> "~/.ssh/" + k).toList()) + " exists");
        }
        List<KeyProvider> providers = new ArrayList<>();
        for (Path key : keys) {
            if (!Files.isReadable(key)) {
                throw new UserAuthException("private key file " + SshFailures.tilde(key, home) + " is not readable");
            }
            providers.add(ssh.loadKeys(key.toString(), passphrase()));
        }
        ssh.authPublickey(loginUser, providers);
    }

    /** Reads the passphrase from the named environment variable when SSHJ finds the key encrypted. */
    private PasswordFinder passphrase() {
        return new PasswordFinder() {
            @Override
            public char[] reqPassword(Resource<?> resource) {
                return passphraseEnv.map(env::get).map(String::toCharArray).orElse(null);
            }

            @Override
            public boolean shouldRetry(Resource<?> resource) {
                return false;
            }
        };
    }
}
