package dev.fleetfix.report.files;

import dev.fleetfix.report.html.HtmlPage;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import java.nio.file.Path;

/** Writes {@code report.html}, one self-contained page with inline SVG plots, when the run ends. */
public final class HtmlReporter implements RunListener {
    private final ReportCollector collector = new ReportCollector();
    private final Path file;

    public HtmlReporter(Path file) {
        this.file = file;
    }

    @Override
    public void on(RunEvent event) {
        collector.on(event);
        if (event instanceof RunEnded) {
            ReportFiles.write(file, HtmlPage.render(collector.report()));
        }
    }
}
