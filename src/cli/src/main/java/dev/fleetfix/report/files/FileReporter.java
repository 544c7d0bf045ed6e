package dev.fleetfix.report.files;

import dev.fleetfix.report.model.FleetReport;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The one listener behind every report a run leaves: it folds the run's events into the report model once ({@link
 * ReportCollector}) and, when the run ends, hands that model to each output's renderer, in the order given. So
 * {@code report.json}, {@code junit.xml}, {@code report.html} and {@code --format json} are the same model rendered,
 * never three collections that could drift apart.
 */
public final class FileReporter implements RunListener {
    private final ReportCollector collector = new ReportCollector();
    private final List<Output> outputs;

    /** One rendering of the model and where its text goes. */
    public record Output(ReportFormat format, Consumer<String> sink) {
        /** Into {@code file}, through a temporary file and a rename, so a reader never sees half a report. */
        public static Output file(ReportFormat format, Path file) {
            return new Output(format, text -> ReportFiles.write(file, text));
        }

        /** Onto {@code out}, once, at the run's end: for {@code apply --format json}, the only thing printed there. */
        public static Output printed(ReportFormat format, PrintWriter out) {
            return new Output(format, text -> {
                out.print(text);
                out.flush();
            });
        }
    }

    public FileReporter(List<Output> outputs) {
        this.outputs = List.copyOf(outputs);
    }

    /** {@code format} alone, into {@code file}. */
    public static FileReporter writing(ReportFormat format, Path file) {
        return new FileReporter(List.of(Output.file(format, file)));
    }

    @Override
    public void on(RunEvent event) {
        collector.on(event);
        if (event instanceof RunEnded) {
            FleetReport report = collector.report();
            for (Output output : outputs) {
                output.sink().accept(output.format().render(report));
            }
        }
    }
}
