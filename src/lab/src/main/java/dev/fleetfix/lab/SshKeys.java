package dev.fleetfix.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** ed25519 key pairs made with OpenSSH's ssh-keygen, so every OpenSSH-speaking client reads them. */
final class SshKeys {
    private SshKeys() {}

    /** Writes {@code privateKey} (mode 0600) and {@code privateKey.pub}; returns the public key line. */
    static String generate(Path privateKey, String comment) {
        try {
            Files.createDirectories(privateKey.getParent());
            Files.deleteIfExists(privateKey);
            Files.deleteIfExists(publicKey(privateKey));
            Process process = new ProcessBuilder(
                            "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", privateKey.toString())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new LabException("ssh-keygen failed for " + privateKey + ": " + output.strip());
            }
            return Files.readString(publicKey(privateKey)).strip();
        } catch (IOException e) {
            throw new LabException("cannot run ssh-keygen (install openssh-client): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while making " + privateKey, e);
        }
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
}
