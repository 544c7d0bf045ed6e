package dev.fleetfix.inventory.ansible.vault;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;

/**
 * One Ansible Vault envelope as {@code ansible-vault} writes it: a header line
 * {@code $ANSIBLE_VAULT;1.1;AES256} (or {@code $ANSIBLE_VAULT;1.2;AES256;LABEL}, which names the vault id), then
 * hex lines that spell, once unhexlified, three hex lines of their own: the salt, the HMAC-SHA256 of the
 * ciphertext, and the ciphertext.
 *
 * @param label the vault id of a 1.2 envelope
 * @param file the file it was read from, for messages
 * @param line the line its header is on (1 for a whole-file vault, the value's line for an inline one)
 */
public record VaultEnvelope(Optional<String> label, byte[] salt, byte[] hmac, byte[] ciphertext, Path file, int line) {

    static final String MAGIC = "$ANSIBLE_VAULT";
    private static final HexFormat HEX = HexFormat.of();

    /** Whether {@code text} is vault-encrypted: its first line is a vault header. */
    public static boolean isVault(String text) {
        return text.stripLeading().startsWith(MAGIC + ";");
    }

    /**
     * Reads an envelope; every malformation (an unknown version or cipher, a body that is not hex, a missing part)
     * is an {@link VaultException} at {@code file:line}.
     */
    public static VaultEnvelope parse(String text, Path file, int line) {
        String[] lines = text.strip().split("\\R");
        String[] header = lines[0].strip().split(";");
        if (header.length < 3 || !header[0].equals(MAGIC)) {
            throw malformed(file, line, "the first line is not a vault header ($ANSIBLE_VAULT;1.1;AES256)");
        }
        String version = header[1].strip();
        if (!version.equals("1.1") && !version.equals("1.2")) {
            throw malformed(file, line, "vault format " + version + " is not supported (only 1.1 and 1.2)");
        }
        if (!header[2].strip().equals("AES256")) {
            throw malformed(file, line, "vault cipher " + header[2].strip() + " is not supported (only AES256)");
        }
        Optional<String> label = version.equals("1.2") && header.length > 3 && !header[3].isBlank()
                ? Optional.of(header[3].strip())
                : Optional.empty();
        StringBuilder body = new StringBuilder();
        for (int i = 1; i < lines.length; i++) {
            body.append(lines[i].strip());
        }
        String[] parts = unhex(body.toString(), file, line, "the body").split("\n", 3);
        if (parts.length != 3) {
            throw malformed(file, line, "the body does not hold salt, HMAC and ciphertext");
        }
        return new VaultEnvelope(
                label,
                HEX.parseHex(hexText(parts[0], file, line, "the salt")),
                HEX.parseHex(hexText(parts[1], file, line, "the HMAC")),
                HEX.parseHex(hexText(parts[2], file, line, "the ciphertext")),
                file,
                line);
    }

    /** Where the envelope is, as messages name it: {@code FILE:LINE}. */
    public String where() {
        return file + ":" + line;
    }

    private static String unhex(String hex, Path file, int line, String what) {
        return new String(HEX.parseHex(hexText(hex, file, line, what)), StandardCharsets.ISO_8859_1);
    }

    private static String hexText(String hex, Path file, int line, String what) {
        String text = hex.strip();
        if (text.isEmpty() || text.length() % 2 != 0 || !text.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw malformed(file, line, what + " is not hexadecimal text");
        }
        return text;
    }

    private static VaultException malformed(Path file, int line, String problem) {
        return new VaultException(file, line, "malformed ansible-vault data: " + problem);
    }
}
