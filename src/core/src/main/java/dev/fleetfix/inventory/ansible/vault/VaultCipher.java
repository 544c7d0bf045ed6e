package dev.fleetfix.inventory.ansible.vault;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Ansible Vault's AES256 cipher on the JDK's own crypto: PBKDF2-HMAC-SHA256 (10,000 iterations) derives 80 bytes
 * from the password and salt, of which 32 are the AES key, 32 the HMAC key and 16 the counter; the plaintext is
 * PKCS#7-padded and encrypted with AES-256-CTR; the HMAC-SHA256 of the ciphertext is checked, in constant time,
 * before anything is decrypted.
 */
public final class VaultCipher {
    private static final int ITERATIONS = 10_000;
    private static final int KEY_BYTES = 32;
    private static final int IV_BYTES = 16;
    private static final int BLOCK = 16;
    private static final HexFormat HEX = HexFormat.of();

    private VaultCipher() {}

    /** The plaintext, or empty when the password does not match the envelope's HMAC. */
    public static Optional<byte[]> decrypt(VaultEnvelope envelope, byte[] password) {
        Keys keys = Keys.derive(password, envelope.salt());
        byte[] expected = hmac(keys, envelope.ciphertext());
        if (!MessageDigest.isEqual(expected, envelope.hmac())) {
            return Optional.empty();
        }
        byte[] padded = ctr(Cipher.DECRYPT_MODE, keys, envelope.ciphertext());
        return Optional.of(unpad(padded));
    }

    /**
     * Encrypts as {@code ansible-vault encrypt} does: the whole envelope text, 80-column hex lines, a 1.2 header
     * when a label is given. Used by tests and for symmetry; fleetfix itself never writes vault files.
     */
    public static String encrypt(byte[] plaintext, byte[] password, Optional<String> label) {
        byte[] salt = new byte[32];
        new SecureRandom().nextBytes(salt);
        Keys keys = Keys.derive(password, salt);
        byte[] ciphertext = ctr(Cipher.ENCRYPT_MODE, keys, pad(plaintext));
        String inner =
                HEX.formatHex(salt) + "\n" + HEX.formatHex(hmac(keys, ciphertext)) + "\n" + HEX.formatHex(ciphertext);
        String body = HEX.formatHex(inner.getBytes(StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder(
                label.map(l -> "$ANSIBLE_VAULT;1.2;AES256;" + l).orElse("$ANSIBLE_VAULT;1.1;AES256"));
        for (int i = 0; i < body.length(); i += 80) {
            out.append('\n').append(body, i, Math.min(body.length(), i + 80));
        }
        return out.append('\n').toString();
    }

    private record Keys(byte[] cipherKey, byte[] hmacKey, byte[] iv) {
        static Keys derive(byte[] password, byte[] salt) {
            byte[] derived = pbkdf2(password, salt);
            return new Keys(
                    Arrays.copyOfRange(derived, 0, KEY_BYTES),
                    Arrays.copyOfRange(derived, KEY_BYTES, 2 * KEY_BYTES),
                    Arrays.copyOfRange(derived, 2 * KEY_BYTES, 2 * KEY_BYTES + IV_BYTES));
        }
    }

    /**
     * The JDK's PBKDF2WithHmacSHA256 takes the password as chars and hashes their UTF-8 bytes, so a UTF-8 password
     * (every one {@link VaultPasswordSource} accepts) gives the bytes Ansible hashes.
     */
    private static byte[] pbkdf2(byte[] password, byte[] salt) {
        char[] chars = new String(password, StandardCharsets.UTF_8).toCharArray();
        PBEKeySpec spec = new PBEKeySpec(chars, salt, ITERATIONS, 8 * (2 * KEY_BYTES + IV_BYTES));
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
            Arrays.fill(chars, '\0');
        }
    }

    private static byte[] hmac(Keys keys, byte[] ciphertext) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(keys.hmacKey(), "HmacSHA256"));
            return mac.doFinal(ciphertext);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks HmacSHA256", e);
        }
    }

    private static byte[] ctr(int mode, Keys keys, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance("AES/CTR/NoPadding");
            cipher.init(mode, new SecretKeySpec(keys.cipherKey(), "AES"), new IvParameterSpec(keys.iv()));
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks AES/CTR/NoPadding", e);
        }
    }

    private static byte[] pad(byte[] plaintext) {
        int n = BLOCK - plaintext.length % BLOCK;
        byte[] out = Arrays.copyOf(plaintext, plaintext.length + n);
        Arrays.fill(out, plaintext.length, out.length, (byte) n);
        return out;
    }

    /** PKCS#7: the last byte says how many bytes of padding there are; bad padding is kept as it is. */
    private static byte[] unpad(byte[] padded) {
        if (padded.length == 0) {
            return padded;
        }
        int n = padded[padded.length - 1] & 0xff;
        if (n < 1 || n > BLOCK || n > padded.length) {
            return padded;
        }
        return Arrays.copyOf(padded, padded.length - n);
    }
}
