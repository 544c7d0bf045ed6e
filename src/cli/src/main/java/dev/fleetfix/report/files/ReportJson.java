package dev.fleetfix.report.files;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fleetfix.InputException;
import dev.fleetfix.bench.plan.BenchRun;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.ReportModelMapper;
import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.report.model.HostListReport;
import dev.fleetfix.transport.HeadTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Reads and writes {@code report.json}: the report model with snake_case field names. */
public final class ReportJson {
    public static final String FILE = "report.json";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ReportJson() {}

    /** {@code apply --list-hosts --format json}: the plays' hosts and batches, the same naming as the report. */
    public static String write(HostListReport hosts) {
        try {
            return MAPPER.writeValueAsString(hosts) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String write(FleetReport report) {
        try {
            return MAPPER.writeValueAsString(report) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The benchmark section of {@code report.json} alone, for {@code fleetfix bench --json}: the
     * same {@code runs}, {@code comparisons} and {@code fleet} fields under the same names.
     *
     * @param step the name recorded as each round's step
     */
    public static String writeBenchmarks(String step, List<BenchRun> runs) {
        try {
            return MAPPER.writeValueAsString(ReportModelMapper.benchmarks(runs.stream()
                            .map(r -> new ReportModelMapper.MeasuredRun(step, r))
                            .toList()))
                    + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a report written by {@link #write}. Fields added by later versions of the same schema
     * are ignored; another schema version is refused.
     *
     * @throws InputException when the file is missing or not a fleetfix report
     */
    public static FleetReport read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new InputException(file + ": no such report (fleetfix apply --report DIR writes " + FILE + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        try {
            // a report file may come from an older fleetfix that kept control characters
            return sanitized(MAPPER.readValue(text, FleetReport.class));
        } catch (IOException | IllegalArgumentException e) {
            throw new InputException(file + ": not a fleetfix report: " + firstLine(e.getMessage()));
        }
    }

    /**
     * The same report with every string, names and keys included, passed through {@link
     * HostText#clean} and cut to {@link #FIELD_CHARS}: hosts wrote much of it (messages, facts, benchmark output), and every
     * renderer (console recap, JSON, JUnit XML, HTML) starts from this model.
     */
    public static FleetReport sanitized(FleetReport report) {
        JsonNode tree = MAPPER.valueToTree(report);
        try {
            return MAPPER.treeToValue(clean(tree), FleetReport.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sanitize the report: " + e.getMessage(), e);
        }
    }

    /** What one text of a report keeps, head and tail: command output can be a megabyte. */
    static final int FIELD_CHARS = 64 * 1024;

    private static JsonNode clean(JsonNode node) {
        if (node.isTextual()) {
            String text = node.asText();
            String clean = HostText.clean(HeadTail.cut(text, FIELD_CHARS));
            return clean.equals(text) ? node : TextNode.valueOf(clean);
        }
        if (node.isArray()) {
            ArrayNode array = MAPPER.createArrayNode();
            node.forEach(item -> array.add(clean(item)));
            return array;
        }
        if (node.isObject()) {
            ObjectNode object = MAPPER.createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                object.set(HostText.clean(field.getKey()), clean(field.getValue()));
            }
            return object;
        }
        return node;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
