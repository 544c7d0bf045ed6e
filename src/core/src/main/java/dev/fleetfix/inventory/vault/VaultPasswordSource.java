package dev.fleetfix.inventory.vault;

import dev.fleetfix.KnownSecrets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Where one vault password comes from, as Ansible reads it: a plain file (its text, surrounding whitespace
 * stripped), or an executable file whose standard output is the password (line ends stripped). A script named
 * like {@code *-client} or {@code *-client.py} is Ansible's vault-id client and is run with
 * {@code --vault-id LABEL}. The password is read once, when a vault first needs it, and never printed.
 */
public final class VaultPasswordSource {
    /** Ansible's default vault id, the label of a password given without one. */
    public static final String DEFAULT_LABEL = "default";

    private static final Pattern CLIENT_SCRIPT = Pattern.compile(".*-client(\\.[^.]*)?$");
    private static final long SCRIPT_SECONDS = 120;

    private final String label;
    private final Path file;
    private final String origin;
    private byte[] password;

    /**
     * @param label the vault id this password is for
     * @param file a password file or an executable printing the password
     * @param origin where the user named it ({@code --vault-id}, {@code ANSIBLE_VAULT_PASSWORD_FILE},
     *     {@code ansible.cfg:3 vault_password_file}), for messages
     */
    public VaultPasswordSource(String label, Path file, String origin) {
        this.label = Objects.requireNonNull(label, "label");
        this.file = Objects.requireNonNull(file, "file");
        this.origin = Objects.requireNonNull(origin, "origin");
    }

    /**
     * Reads {@code [LABEL@]SOURCE} as {@code --vault-id} takes it. {@code prompt} is refused: fleetfix runs
     * unattended and never asks for a password on the terminal.
     */
    public static VaultPasswordSource ofVaultId(String spec, String origin) {
        int at = spec.indexOf('@');
        String label = at < 0 ? DEFAULT_LABEL : spec.substring(0, at);
        String source = at < 0 ? spec : spec.substring(at + 1);
        if (label.isBlank() || source.isBlank()) {
            throw new VaultException(origin + ": vault id '" + spec + "' must be [LABEL@]FILE");
        }
        if (source.equals("prompt") || source.equals("prompt_ask_vault_pass")) {
            throw new VaultException(origin + ": vault id '" + spec + "' asks for a prompt, and fleetfix never"
                    + " prompts (it runs unattended): give the password in a file or an executable that prints it,"
                    + " --vault-id " + label + "@FILE");
        }
        return new VaultPasswordSource(label, expandHome(source), origin);
    }

    static Path expandHome(String path) {
        if (path.equals("~") || path.startsWith("~/")) {
            return Path.of(System.getProperty("user.home") + path.substring(1));
        }
        return Path.of(path);
    }

    public String label() {
        return label;
    }

    /** The file, and where it was named unless that was the command line: for messages. */
    public String describe() {
        return origin.startsWith("--") ? file.toString() : file + " (" + origin + ")";
    }

    /** The password's bytes (UTF-8), read or run once. */
    synchronized byte[] password() {
        if (password == null) {
            password = read();
        }
        return password;
    }

    private byte[] read() {
        if (!Files.isRegularFile(file)) {
            throw problem(Files.exists(file) ? "is not a regular file" : "does not exist");
        }
        String text = Files.isExecutable(file) ? run() : utf8(readFile()).strip();
        if (text.isEmpty()) {
            throw problem("gives an empty password");
        }
        KnownSecrets.register(text);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] readFile() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw problem("cannot be read: " + e.getMessage());
        }
    }

    private String run() {
        List<String> command = new ArrayList<>(List.of(file.toAbsolutePath().toString()));
        if (CLIENT_SCRIPT.matcher(file.getFileName().toString()).matches()) {
            command.addAll(List.of("--vault-id", label));
        }
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            throw problem("cannot be run: " + e.getMessage());
        }
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        try {
            if (!process.waitFor(SCRIPT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw problem("did not finish within " + SCRIPT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                // its error output, never its standard output: that may hold the password
                String said = utf8(err.join()).strip().lines().findFirst().orElse("");
                throw problem("exited with status " + process.exitValue() + (said.isEmpty() ? "" : ": " + said));
            }
            return utf8(out.join()).replaceAll("^[\\r\\n]+|[\\r\\n]+$", "");
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw problem("was interrupted");
        }
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw problem("does not give UTF-8 text");
        }
    }

    private VaultException problem(String what) {
        String kind = Files.isExecutable(file) && Files.isRegularFile(file)
                ? "vault password script "
                : "vault password file ";
        return new VaultException("vault: " + kind + describe() + " " + what);
    }

    @Override
    public String toString() {
        return "vault id " + label + " from " + describe();
    }
}
