package dev.fleetfix.inventory.ansible.vault;

import dev.fleetfix.HomePaths;
import dev.fleetfix.KnownSecrets;
import dev.fleetfix.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    private static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(120);
    /** A password file, or what a script prints, may hold this much: a password, not a disk image. */
    static final int MAX_BYTES = 64 * 1024;

    /** How long what the script printed may take to be read once it has exited. */
    private static final Duration READ_AFTER_EXIT = Duration.ofSeconds(5);
    /** Runs a script in a session of its own, so that its children can be ended with it. */
    private static final List<Path> SETSID = List.of(Path.of("/usr/bin/setsid"), Path.of("/bin/setsid"));

    private static final List<Path> KILL = List.of(Path.of("/usr/bin/kill"), Path.of("/bin/kill"));

    /** Where the password {@link #asked} comes from, for messages. */
    private static final String ASKED = "-J/--ask-vault-pass";

    private final String label;
    /** The file or script; null for the password {@link #asked} on the terminal. */
    private final Path file;

    private final String origin;
    private final Duration scriptTimeout;
    private byte[] password;

    /**
     * @param label the vault id this password is for
     * @param file a password file or an executable printing the password
     * @param origin where the user named it ({@code --vault-id}, {@code ANSIBLE_VAULT_PASSWORD_FILE},
     *     {@code ansible.cfg:3 vault_password_file}), for messages
     */
    public VaultPasswordSource(String label, Path file, String origin) {
        this(label, file, origin, SCRIPT_TIMEOUT);
    }

    /** @param scriptTimeout how long a password script may run before it and its children are ended */
    VaultPasswordSource(String label, Path file, String origin, Duration scriptTimeout) {
        this.label = Objects.requireNonNull(label, "label");
        this.file = Objects.requireNonNull(file, "file");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.scriptTimeout = Objects.requireNonNull(scriptTimeout, "scriptTimeout");
    }

    private VaultPasswordSource(String label, String origin, byte[] password) {
        this.label = label;
        this.file = null;
        this.origin = origin;
        this.scriptTimeout = SCRIPT_TIMEOUT;
        this.password = password;
    }

    /** The password {@code -J}/{@code --ask-vault-pass} asked for on the terminal: Ansible's default vault id. */
    public static VaultPasswordSource asked(Secret password) {
        String text = password.reveal();
        KnownSecrets.register(text);
        return new VaultPasswordSource(DEFAULT_LABEL, ASKED, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads {@code [LABEL@]SOURCE} as {@code --vault-id} takes it. {@code prompt} is refused: fleetfix asks on the
     * terminal for the default vault id's password only ({@code -J}, {@link #asked}).
     */
    public static VaultPasswordSource ofVaultId(String spec, String origin) {
        int at = spec.indexOf('@');
        String label = at < 0 ? DEFAULT_LABEL : spec.substring(0, at);
        String source = at < 0 ? spec : spec.substring(at + 1);
        if (label.isBlank() || source.isBlank()) {
            throw new VaultException(origin + ": vault id '" + spec + "' must be [LABEL@]FILE");
        }
        if (source.equals("prompt") || source.equals("prompt_ask_vault_pass")) {
            throw new VaultException(origin + ": vault id '" + spec + "' asks for a prompt, which fleetfix does for"
                    + " the default vault id only (-J/--ask-vault-pass): give this one's password in a file or an"
                    + " executable that prints it, --vault-id " + label + "@FILE");
        }
        return new VaultPasswordSource(label, expandHome(source), origin);
    }

    static Path expandHome(String path) {
        return Path.of(HomePaths.expand(path));
    }

    public String label() {
        return label;
    }

    /** The file, and where it was named unless that was the command line: for messages. */
    public String describe() {
        if (file == null) {
            return origin;
        }
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
            throw problem(
                    Files.exists(file)
                            ? "is not a regular file (a FIFO, a device or a directory is never read)"
                            : "does not exist");
        }
        String text = Files.isExecutable(file) ? run() : utf8(readFile()).strip();
        if (text.isEmpty()) {
            throw problem("gives an empty password");
        }
        KnownSecrets.register(text);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The file's bytes, at most {@link #MAX_BYTES}: a larger file is refused before it fills the memory. */
    private byte[] readFile() {
        try (InputStream in = Files.newInputStream(file)) {
            return bounded(in).orElseThrow(() -> problem("is larger than " + MAX_BYTES / 1024 + " KiB"));
        } catch (IOException e) {
            throw problem("cannot be read: " + e.getMessage());
        }
    }

    /** Up to {@link #MAX_BYTES} of {@code in}; empty when it holds more. */
    private static Optional<byte[]> bounded(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        return bytes.length > MAX_BYTES ? Optional.empty() : Optional.of(bytes);
    }

    /**
     * Runs the script in a session of its own ({@code setsid}) and reads at most {@link #MAX_BYTES} of what it
     * prints. When it is done, or has run too long, its whole process group is ended: a child it left behind (a
     * keyring agent it started, a hung helper) does not outlive it, nor keep its output open.
     */
    private String run() {
        List<String> command = new ArrayList<>();
        Optional<Path> setsid = SETSID.stream().filter(Files::isExecutable).findFirst();
        setsid.ifPresent(tool -> command.add(tool.toString()));
        command.add(file.toAbsolutePath().toString());
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
        // standard output stops being read at the bound: a script that prints more is ended there, not at its timeout
        CompletableFuture<Optional<byte[]>> out = CompletableFuture.supplyAsync(() -> upTo(process.getInputStream()));
        CompletableFuture<Optional<byte[]>> err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        CompletableFuture<?> printedTooMuch = out.thenCompose(
                printed -> printed.isPresent() ? new CompletableFuture<>() : CompletableFuture.completedFuture(null));
        try {
            boolean finished = finishedOrPrintedTooMuch(process, printedTooMuch);
            endGroup(process, setsid.isPresent());
            if (printedTooMuch.isDone()) {
                throw problem("printed more than " + MAX_BYTES / 1024 + " KiB");
            }
            if (!finished) {
                throw problem("did not finish within " + scriptTimeout.toSeconds() + " s, and was ended with its"
                        + " children");
            }
            if (process.exitValue() != 0) {
                // its error output, never its standard output: that may hold the password
                String said = firstLine(read(err));
                throw problem("exited with status " + process.exitValue() + (said.isEmpty() ? "" : ": " + said));
            }
            byte[] printed = read(out).orElseThrow(() -> problem("printed more than " + MAX_BYTES / 1024 + " KiB"));
            return utf8(printed).replaceAll("^[\\r\\n]+|[\\r\\n]+$", "");
        } catch (InterruptedException e) {
            endGroup(process, setsid.isPresent());
            Thread.currentThread().interrupt();
            throw problem("was interrupted");
        } finally {
            // its pipes are closed only now that what it printed has been read
            process.destroyForcibly();
        }
    }

    private String firstLine(Optional<byte[]> said) {
        return said.map(this::utf8).orElse("").strip().lines().findFirst().orElse("");
    }

    /**
     * What a reader of the script's output got: the script has exited and its group was ended, so the pipe ends
     * soon; a descendant that left the group and keeps it open is not waited for.
     */
    private static Optional<byte[]> read(CompletableFuture<Optional<byte[]>> reader) throws InterruptedException {
        try {
            return reader.get(READ_AFTER_EXIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return Optional.of(new byte[0]);
        }
    }

    /**
     * Ends the script's process group (its id is the script's, which {@code setsid} made a session leader) and
     * whatever of its descendants is still known, then the script itself.
     */
    private static void endGroup(Process process, boolean ownGroup) {
        long pid = process.pid();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        if (ownGroup) {
            KILL.stream().filter(Files::isExecutable).findFirst().ifPresent(kill -> {
                try {
                    Process killer = new ProcessBuilder(kill.toString(), "-KILL", "--", "-" + pid)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start();
                    killer.waitFor(5, TimeUnit.SECONDS);
                } catch (IOException e) {
                    // the descendants were ended above; a group that cannot be signalled is gone already
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        // an exited script's pipes stay open (destroying it would close them), so that what it printed is read
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** Whether the script exited within its timeout; true as well once it has printed more than the bound. */
    private boolean finishedOrPrintedTooMuch(Process process, CompletableFuture<?> printedTooMuch)
            throws InterruptedException {
        try {
            CompletableFuture.anyOf(process.onExit(), printedTooMuch)
                    .get(scriptTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** What a stream gives, up to {@link #MAX_BYTES}; empty when it gives more (the rest is left unread). */
    private static Optional<byte[]> upTo(InputStream in) {
        try {
            return bounded(in);
        } catch (IOException e) {
            return Optional.of(new byte[0]);
        }
    }

    /** What a stream gives, up to {@link #MAX_BYTES}; empty when it gives more (the rest is read and dropped). */
    private static Optional<byte[]> drain(InputStream in) {
        try (in) {
            Optional<byte[]> bytes = bounded(in);
            in.transferTo(OutputStream.nullOutputStream());
            return bytes;
        } catch (IOException e) {
            return Optional.of(new byte[0]);
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
