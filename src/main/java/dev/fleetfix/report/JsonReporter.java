package dev.fleetfix.report;

import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import java.nio.file.Path;

/** Writes {@code report.json} (schema: {@link dev.fleetfix.report.model}) when the run ends. */
public final class JsonReporter implements RunListener {
    private final ReportCollector collector = new ReportCollector();
    private final Path file;

    public JsonReporter(Path file) {
        this.file = file;
    }

    @Override
    public void on(RunEvent event) {
        collector.on(event);
        if (event instanceof RunEnded) {
            ReportFiles.write(file, ReportJson.write(collector.report()));
        }
    }
}
