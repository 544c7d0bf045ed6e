package dev.fleetfix.cli;

import dev.fleetfix.report.console.ApplyOutput;
import dev.fleetfix.rollout.event.RunListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** What {@code apply} prints and writes ({@code @Mixin}): {@code --format}, {@code --report DIR}, {@code --no-color}. */
final class ApplyOutputOptions {
    @Option(names = "--no-color", description = "Plain output, no ANSI colours.")
    boolean noColor;

    @Option(
            names = "--report",
            paramLabel = "DIR",
            description = "Also write report.json, junit.xml and report.html into DIR (created when missing).")
    Path reportDir;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            completionCandidates = TableOrJson.Words.class,
            description = "table (default: progress and recap on stdout) or json: the report (schema_version, as"
                    + " report.json) as one JSON document on stdout when the run ends, the progress on stderr;"
                    + " with --list-hosts, the plays' hosts; an error as a JSON document (docs/json.md). Default json"
                    + " where ansible.cfg's"
                    + " stdout_callback or ANSIBLE_STDOUT_CALLBACK is json (or ansible.posix.json).")
    TableOrJson format;

    boolean json() {
        return format == TableOrJson.JSON;
    }

    Optional<Path> reports() {
        return Optional.ofNullable(reportDir);
    }

    /** Where the progress and the recap go: stdout, or with json stderr (stdout carries the one document). */
    PrintWriter human(PrintWriter out, PrintWriter err) {
        return json() ? err : out;
    }

    /** What listens to the run: the console, and the report files, checked before any host is contacted. */
    RunListener listener(PrintWriter out, PrintWriter err, boolean diff) {
        return ApplyOutput.listener(
                human(out, err),
                Colors.enabled(noColor),
                Screens.of(),
                diff,
                reports(),
                json() ? Optional.of(out) : Optional.empty());
    }
}
