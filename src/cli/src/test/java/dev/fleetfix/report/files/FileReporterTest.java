package dev.fleetfix.report.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.report.SyntheticRun;
import dev.fleetfix.rollout.event.RunEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileReporterTest {
    @TempDir
    Path dir;

    @Test
    void theJsonPrintedAndTheFilesWrittenAreOneModelRendered() throws Exception {
        StringWriter printed = new StringWriter();
        List<FileReporter.Output> outputs = new ArrayList<>();
        outputs.add(FileReporter.Output.printed(ReportFormat.JSON, new PrintWriter(printed)));
        outputs.addAll(ReportFiles.outputs(dir));
        ReportCollector alone = new ReportCollector();

        SyntheticRun.events().forEach(alone::on);
        SyntheticRun.play(new FileReporter(outputs));

        assertThat(printed.toString()).isEqualTo(Files.readString(dir.resolve("report.json")));
        for (ReportFormat format : ReportFormat.values()) {
            assertThat(dir.resolve(format.fileName())).hasContent(format.render(alone.report()));
        }
    }

    @Test
    void nothingIsWrittenBeforeTheRunEnds() {
        List<RunEvent> events = SyntheticRun.events();
        FileReporter reporter = new FileReporter(ReportFiles.outputs(dir));

        events.subList(0, events.size() - 1).forEach(reporter::on);

        assertThat(ReportFiles.paths(dir)).noneMatch(Files::exists);
        reporter.on(events.get(events.size() - 1));
        assertThat(ReportFiles.paths(dir)).allMatch(Files::isRegularFile);
    }
}
