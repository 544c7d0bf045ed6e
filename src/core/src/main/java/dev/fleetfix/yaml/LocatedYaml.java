package dev.fleetfix.yaml;

import dev.fleetfix.InputException;
import dev.fleetfix.yaml.YamlValue.Scalar;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The one YAML reader of fleetfix's inputs (inventories, playbooks, vars files). This class reads and bounds the
 * text and has SnakeYAML compose the document; {@link NodeConverter} turns its nodes into {@link YamlValue}s that
 * keep line:column, resolving aliases and {@code <<} merge keys as YAML 1.1 defines them (what Ansible's PyYAML
 * does).
 *
 * <p>Every input is bounded: at most {@link #MAX_BYTES} bytes are read, nesting is at most {@link
 * #MAX_DEPTH} levels, and aliases may not expand the document past ten nodes per character of text
 * (an "alias bomb" of nested aliases refers to a few lines billions of times). A second document is
 * refused rather than ignored: fleetfix would otherwise run half of what the file says. A key written
 * twice in one mapping is the one rule for every input, Ansible's: a warning, and the last value.
 */
public final class LocatedYaml {
    /** The size limit of one YAML input: far above a 100,000-host inventory (about 5 MB). */
    public static final int MAX_BYTES = 32 * 1024 * 1024;

    /**
     * The longest line read. SnakeYAML looks ahead over a whole token, comment or block-scalar line
     * and copies its read-ahead window for every 1 KB it adds, so its time grows with the square of
     * a line's length (measured in docs/performance.md, "Long YAML lines").
     */
    public static final int MAX_LINE = 1024 * 1024;

    static final int MAX_DEPTH = 100;
    private static final long NODES_PER_CHAR = 10;
    private static final long MIN_NODE_BUDGET = 10_000;

    private LocatedYaml() {}

    /**
     * Reads a file as UTF-8 text, refusing a directory, a file over {@link #MAX_BYTES} and bytes
     * that are not UTF-8, each with its own message.
     *
     * @param what what the file is, for messages ("inventory", "playbook")
     */
    public static String readText(Path file, String what) {
        if (Files.isDirectory(file)) {
            throw new InputException(file, 0, 0, what + " is a directory, not a YAML file");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new InputException(what + " " + file + ": no such file");
        } catch (IOException e) {
            throw new InputException(what + " " + file + ": cannot read: " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            throw new InputException(
                    file,
                    0,
                    0,
                    what + " is larger than the size limit of " + (MAX_BYTES / (1024 * 1024))
                            + " MiB for a YAML input; fleetfix reads no more of it");
        }
        return utf8(file, what, bytes);
    }

    private static String utf8(Path file, String what, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            int offset = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < offset; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            throw new InputException(
                    file, line, offset - lineStart + 1, what + " is not UTF-8 text (byte " + offset + ")");
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /**
     * Parses the single document of {@code text}. A key written twice in one mapping is Ansible's
     * warning, not an error: the key keeps its first position and takes its last value, and {@code
     * warnings} is told {@code FILE:LINE:COL: duplicate key "KEY" (first at line N); using the last
     * value only}, at the later key.
     *
     * @param warnings receives one line per duplicate key, for the user
     * @return empty when the text holds no document, or only a null
     * @throws InputException for a syntax error, a second document, an alias bomb or a recursive
     *     alias, naming file:line:column
     */
    public static Optional<YamlValue> parse(Path file, String text, Consumer<String> warnings) {
        return parse(file, text, warnings, VaultedText.Opener.KEEP);
    }

    /**
     * Parses as {@link #parse(Path, String, Consumer)} does, giving each inline {@code !vault} value to {@code
     * vaulted} as it is read: the tree holds what it returns (a secret), or the error it throws stops the parse.
     */
    public static Optional<YamlValue> parse(
            Path file, String text, Consumer<String> warnings, VaultedText.Opener vaulted) {
        Objects.requireNonNull(warnings, "warnings");
        Objects.requireNonNull(vaulted, "vaulted");
        checkLines(file, text);
        LoaderOptions options = new LoaderOptions();
        // Size and expansion are bounded here (readText, the node budget), not by SnakeYAML's
        // 3 MB and 50-alias defaults, which refuse a large but honest inventory.
        options.setCodePointLimit(Integer.MAX_VALUE);
        options.setMaxAliasesForCollections(Integer.MAX_VALUE);
        // SnakeYAML's own limit says no place: NodeConverter's, ten times lower, names one.
        options.setNestingDepthLimit(MAX_DEPTH * 10);
        options.setAllowRecursiveKeys(false);
        Node root;
        try {
            Composer composer = new Composer(new ParserImpl(new StreamReader(text), options), new Resolver(), options);
            root = composer.getSingleNode();
        } catch (MarkedYAMLException e) {
            throw syntaxError(file, text, e);
        } catch (YAMLException e) {
            throw new InputException(file, 0, 0, "YAML error: " + e.getMessage());
        }
        if (root == null) {
            return Optional.empty();
        }
        YamlValue value = new NodeConverter(file, NODES_PER_CHAR * text.length() + MIN_NODE_BUDGET, warnings, vaulted)
                .convert(root, 0);
        return value instanceof Scalar s && s.value() == null ? Optional.empty() : Optional.of(value);
    }

    private static void checkLines(Path file, String text) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - start > MAX_LINE) {
                    throw new InputException(
                            file,
                            line,
                            1,
                            "line " + line + " is " + (i - start) + " characters long, over the limit of "
                                    + MAX_LINE + " per line (the YAML parser slows down with the square of a"
                                    + " line's length); break it up");
                }
                line++;
                start = i + 1;
            }
        }
    }

    private static InputException syntaxError(Path file, String text, MarkedYAMLException e) {
        String problem = e.getProblem() == null ? "unreadable" : e.getProblem();
        if (problem.startsWith("but found another document")
                || (e.getContext() != null && e.getContext().contains("single document"))) {
            Mark at = e.getProblemMark();
            return new InputException(
                    file,
                    at == null ? 0 : at.getLine() + 1,
                    at == null ? 0 : at.getColumn() + 1,
                    "a second YAML document starts here; fleetfix reads one document per file,"
                            + " so put everything in the first (or remove the '---')");
        }
        return YamlSyntaxError.of(file, text, e);
    }
}
