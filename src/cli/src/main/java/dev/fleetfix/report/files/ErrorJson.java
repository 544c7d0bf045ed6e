package dev.fleetfix.report.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.model.FleetReport;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a command asked for JSON ({@code --format json}, {@code --json}) prints on standard output when it ends in an
 * error, so that a script reading stdout gets a document and not nothing. The exit code is the command's as ever, and
 * the error is on stderr too, as text.
 *
 * <pre>
 * {"schema_version": 3, "tool": "fleetfix", "error": {"message", "exit_code", "file", "line", "column"}}
 * </pre>
 *
 * {@code file}, {@code line} and {@code column} are null when the error is not about a place in a file.
 */
public final class ErrorJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ErrorJson() {}

    /**
     * @param message the error, as stderr says it
     * @param exitCode the command's exit code
     * @param file the file it is about, with its line and column (0 when not known)
     */
    public static String render(String message, int exitCode, Optional<Path> file, int line, int column) {
        Document document = new Document(
                FleetReport.SCHEMA_VERSION,
                "fleetfix",
                new Error(
                        HostText.clean(message),
                        exitCode,
                        file.map(Path::toString).orElse(null),
                        file.isPresent() && line > 0 ? line : null,
                        file.isPresent() && column > 0 ? column : null));
        try {
            return MAPPER.writeValueAsString(document) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    @JsonPropertyOrder({"schema_version", "tool", "error"})
    record Document(@JsonProperty("schema_version") int schemaVersion, String tool, Error error) {}

    @JsonPropertyOrder({"message", "exit_code", "file", "line", "column"})
    record Error(String message, @JsonProperty("exit_code") int exitCode, String file, Integer line, Integer column) {}
}
