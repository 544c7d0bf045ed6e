package dev.fleetfix.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** ed25519 key pairs and certificates made with OpenSSH's ssh-keygen, so every OpenSSH-speaking client reads them. */
final class SshKeys {
    private SshKeys() {}

    /** Writes {@code privateKey} (mode 0600) and {@code privateKey.pub}; returns the public key line. */
    static String generate(Path privateKey, String comment) {
        try {
            Files.createDirectories(privateKey.getParent());
            Files.deleteIfExists(privateKey);
            Files.deleteIfExists(publicKey(privateKey));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make room for " + privateKey, e);
        }
        keygen(privateKey, "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", privateKey.toString());
        try {
            return Files.readString(publicKey(privateKey)).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + publicKey(privateKey), e);
        }
    }

    /**
     * Signs {@code publicKey} with the CA key {@code caKey} ({@code ssh-keygen -s}), as a host certificate when
     * {@code host}, else a user one, for the comma-separated {@code principals} over {@code validity} (ssh-keygen's
     * {@code -V}); returns the certificate OpenSSH looks for beside the key: {@code KEY-cert.pub}.
     */
    static Path sign(Path caKey, Path publicKey, String identity, boolean host, String principals, String validity) {
        String name = publicKey.getFileName().toString();
        Path cert = publicKey.resolveSibling(name.substring(0, name.length() - ".pub".length()) + "-cert.pub");
        List<String> args = new ArrayList<>(List.of("-q", "-s", caKey.toString(), "-I", identity));
        if (host) {
            args.add("-h");
        }
        args.addAll(List.of("-n", principals, "-V", validity, publicKey.toString()));
        keygen(cert, args.toArray(String[]::new));
        return cert;
    }

    static Path publicKey(Path privateKey) {
        return privateKey.resolveSibling(privateKey.getFileName() + ".pub");
    }

    /** {@code ssh-ed25519 AAAA...} without the comment: what a known_hosts line holds after the address. */
    static String typeAndKey(String publicKeyLine) {
        String[] parts = publicKeyLine.strip().split("\\s+");
        if (parts.length < 2) {
            throw new UncheckedIOException(new IOException("not a public key line: " + publicKeyLine));
        }
        return parts[0] + " " + parts[1];
    }

    /** Runs ssh-keygen with {@code args}; {@code made} names what it makes, for the error. */
    private static void keygen(Path made, String... args) {
        List<String> command = new ArrayList<>(List.of("ssh-keygen"));
        command.addAll(List.of(args));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new LabException("ssh-keygen failed for " + made + ": " + output.strip());
            }
        } catch (IOException e) {
            throw new LabException("cannot run ssh-keygen (install openssh-client): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while making " + made, e);
        }
    }
}
