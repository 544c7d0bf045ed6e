package dev.fleetfix.transport.ssh;

import com.hierynomus.sshj.userauth.certificate.Certificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import net.schmizz.sshj.common.Buffer;

/**
 * The user certificates OpenSSH offers with a private key: {@code KEY-cert.pub}, as an SSH CA issues it, and those the
 * ssh config names with {@code CertificateFile}.
 */
final class UserCertificates {
    private UserCertificates() {}

    /** The certificate OpenSSH offers with a key: {@code KEY-cert.pub} beside it, when there is one. */
    static Optional<Path> file(Path key) {
        Path cert = key.resolveSibling(key.getFileName() + "-cert.pub");
        return Files.isRegularFile(cert) ? Optional.of(cert) : Optional.empty();
    }

    /**
     * The certificate beside a key, when it certifies that very key; OpenSSH skips one that does not (a key replaced
     * and its old certificate left), and so does this. Read at each login: a CA's short-lived certificates are
     * renewed in place while a run goes on.
     */
    static Optional<Certificate<?>> of(Path key, PublicKey plain) {
        return file(key).flatMap(file -> read(file, plain));
    }

    /**
     * The certificate in {@code file} when it certifies {@code plain}: how OpenSSH pairs a {@code CertificateFile} of
     * the ssh config with the key it certifies. Empty when the file is missing, unreadable or of another key.
     */
    static Optional<Certificate<?>> read(Path file, PublicKey plain) {
        try {
            String[] words = Files.readString(file).strip().split("\\s+");
            if (words.length < 2) {
                return Optional.empty();
            }
            PublicKey read = new Buffer.PlainBuffer(Base64.getDecoder().decode(words[1])).readPublicKey();
            if (read instanceof Certificate<?> cert && Arrays.equals(blob(cert.getKey()), blob(plain))) {
                return Optional.of(cert);
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static byte[] blob(PublicKey key) {
        return new Buffer.PlainBuffer().putPublicKey(key).getCompactData();
    }
}
