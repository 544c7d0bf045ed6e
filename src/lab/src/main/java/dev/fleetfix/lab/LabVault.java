package dev.fleetfix.lab;

import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import dev.fleetfix.report.AnsibleYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;

/**
 * The secrets of a lab's hosts, kept as operators keep theirs: the become password of a host whose sudo (or su) asks
 * for one is in {@code host_vars/HOST.yml} beside the inventory, a file encrypted with Ansible Vault (1.1, AES256),
 * whose password is the lab's {@code vault-password} file (mode 0600). The inventory and what {@code lab up} prints
 * hold neither: a run gives {@code --vault-password-file} (or moves {@code host_vars/} aside and answers {@code -K}).
 */
final class LabVault {
    private static final String LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private LabVault() {}

    /** A new password of 20 letters and digits: a lab host's sudo or root password, or the vault's. */
    static String newPassword() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            out.append(LETTERS.charAt(RANDOM.nextInt(LETTERS.length())));
        }
        return out.toString();
    }

    /** The lab's vault password file. */
    static Path passwordFile(Path dir) {
        return dir.resolve("vault-password");
    }

    /** The vaulted variables of a host, beside the inventory, where Ansible and fleetfix read them. */
    static Path hostVars(Path dir, String host) {
        return dir.resolve("host_vars").resolve(host + ".yml");
    }

    /**
     * The secret variables of a host whose sudo or su asks for a password: {@code ansible_become_password}. Its
     * login user and become method are no secret: {@link LabInventory#become} puts them in the inventory.
     */
    static Optional<Map<String, Object>> secrets(LabHostSpec spec) {
        return spec.sudoPassword().or(spec::rootPassword).map(password -> Map.of("ansible_become_password", password));
    }

    /**
     * Writes {@code host_vars/HOST.yml} vault-encrypted with the lab's vault password, made at the first host that
     * needs it.
     */
    static void write(Path dir, String host, Map<String, Object> secrets) {
        byte[] plain = AnsibleYaml.write(secrets).getBytes(StandardCharsets.UTF_8);
        LabHostFiles.write(hostVars(dir, host), VaultCipher.encrypt(plain, vaultPassword(dir), Optional.empty()));
    }

    private static byte[] vaultPassword(Path dir) {
        Path file = passwordFile(dir);
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(dir);
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, newPassword() + "\n");
            }
            return Files.readString(file).strip().getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the lab's vault password " + file, e);
        }
    }
}
