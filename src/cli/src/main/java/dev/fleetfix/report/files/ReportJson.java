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
import dev.fleetfix.BoundedFile;
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
     * The benchmark section of {@code report.json} alone, for {@code fleetfix bench --json}: the report's {@code
     * schema_version}, then the same {@code runs}, {@code comparisons}, {@code fleet}, {@code sweep} and {@code
     * sweep_comparisons} fields under the same names.
     *
     * @param step the name recorded as each round's step
     */
    public static String writeBenchmarks(String step, List<BenchRun> runs) {
        try {
            ObjectNode document = MAPPER.createObjectNode().put("schema_version", FleetReport.SCHEMA_VERSION);
            document.setAll((ObjectNode) MAPPER.valueToTree(ReportModelMapper.benchmarks(runs.stream()
                    .map(r -> new ReportModelMapper.MeasuredRun(step, r))
                    .toList())));
            return MAPPER.writeValueAsString(document) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The most a report.json may hold: a large fleet's report with every benchmark window is a few MiB. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    /**
     * Reads a report written by {@link #write}, of this schema version or an older one (version 1 and 2 named a
     * host's key {@code name}; it is read as {@code host}). Fields added by later versions of the same schema are
     * ignored; another schema version, or one that is not a whole number ({@code "1"}, {@code 1.5}), is refused. The
     * file must be a regular file of at most {@link #MAX_BYTES}: a link to {@code /dev/zero}, a FIFO or a huge file
     * is refused by name before it is read.
     *
     * @throws InputException when the file is missing, not a regular file, too large or not a fleetfix report
     */
    public static FleetReport read(Path file) {
        if (!Files.exists(file)) {
            throw new InputException(file + ": no such report (fleetfix apply --report DIR writes " + FILE + ")");
        }
        String text = BoundedFile.read(file, "report", MAX_BYTES);
        try {
            JsonNode tree = MAPPER.readTree(text);
            if (tree == null || !tree.isObject()) {
                throw new InputException(file + ": not a fleetfix report: not a JSON object");
            }
            int version = schemaVersion(file, tree.get("schema_version"));
            if (version < FleetReport.SCHEMA_VERSION) {
                hostKeyOfOlderVersions((ObjectNode) tree);
            }
            // a report file may come from an older fleetfix that kept control characters
            return sanitized(MAPPER.treeToValue(tree, FleetReport.class));
        } catch (IOException | IllegalArgumentException e) {
            throw new InputException(file + ": not a fleetfix report: " + firstLine(e.getMessage()));
        }
    }

    /** The versions {@link #read} takes: this one and the older ones it can still read. */
    static final List<Integer> READABLE_VERSIONS = List.of(1, 2, FleetReport.SCHEMA_VERSION);

    private static int schemaVersion(Path file, JsonNode version) {
        if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()) {
            throw new InputException(file + ": not a fleetfix report: schema_version must be a whole number, one of "
                    + READABLE_VERSIONS + ", was " + (version == null ? "missing" : version.toString()));
        }
        if (!READABLE_VERSIONS.contains(version.intValue())) {
            throw new InputException(file + ": schema_version " + version.intValue() + " is not one this fleetfix"
                    + " reads (" + READABLE_VERSIONS + "): a report of a newer fleetfix?");
        }
        return version.intValue();
    }

    /** Schema versions 1 and 2 named a host {@code name} in {@code hosts[]}; version 3 names it {@code host}. */
    private static void hostKeyOfOlderVersions(ObjectNode report) {
        JsonNode hosts = report.get("hosts");
        if (hosts == null || !hosts.isArray()) {
            return;
        }
        for (JsonNode host : hosts) {
            if (host instanceof ObjectNode object && object.has("name") && !object.has("host")) {
                object.set("host", object.remove("name"));
            }
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
