package dev.fleetfix.report.files;

import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import java.nio.file.Path;

/** Writes {@code junit.xml} (one testcase per host × step) when the run ends. */
public final class JunitXmlReporter implements RunListener {
    private final ReportCollector collector = new ReportCollector();
    private final Path file;

    public JunitXmlReporter(Path file) {
        this.file = file;
    }

    @Override
    public void on(RunEvent event) {
        collector.on(event);
        if (event instanceof RunEnded) {
            ReportFiles.write(file, JunitXml.render(collector.report()));
        }
    }
}
