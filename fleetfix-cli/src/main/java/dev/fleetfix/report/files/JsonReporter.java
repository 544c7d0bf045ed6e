package dev.fleetfix.report.files;

import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Writes the run's report as one JSON document (schema: {@link dev.fleetfix.report.model}) when the run ends: into
 * {@code report.json}, or onto standard output for {@code apply --format json}.
 */
public final class JsonReporter implements RunListener {
    private final ReportCollector collector = new ReportCollector();
    private final Consumer<String> sink;

    private JsonReporter(Consumer<String> sink) {
        this.sink = sink;
    }

    /** Into {@code file} (through a temporary file and a rename). */
    public JsonReporter(Path file) {
        this(json -> ReportFiles.write(file, json));
    }

    /** Onto {@code out}, once, at the run's end: the only thing a {@code --format json} run prints there. */
    public static JsonReporter printing(PrintWriter out) {
        return new JsonReporter(json -> {
            out.print(json);
            out.flush();
        });
    }

    @Override
    public void on(RunEvent event) {
        collector.on(event);
        if (event instanceof RunEnded) {
            sink.accept(ReportJson.write(collector.report()));
        }
    }
}
