package dev.fleetfix.report.console;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.files.FileReporter;
import dev.fleetfix.report.files.ReportFiles;
import dev.fleetfix.report.files.ReportFormat;
import dev.fleetfix.report.files.ReportJson;
import dev.fleetfix.report.model.HostListReport;
import dev.fleetfix.rollout.ApplyService.ApplyResult;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunOutcome;
import dev.fleetfix.rollout.plan.RunPlan;
import dev.fleetfix.rollout.plan.TaskListing;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code fleetfix apply} prints besides the run's events: the host list, the task and tag listings, the files
 * it wrote.
 */
public final class ApplyOutput {
    private ApplyOutput() {}

    /** {@code --list-hosts} (as a table, or with {@code --format json} as JSON), else {@code --syntax-check}. */
    public static void planListing(Path playbook, RunPlan plan, boolean listHosts, boolean json, PrintWriter out) {
        if (listHosts && json) {
            hostListJson(plan, out);
        } else if (listHosts) {
            hostList(playbook, plan, out);
        } else {
            syntaxChecked(playbook, out);
        }
    }

    /**
     * Like ansible-playbook --list-hosts: the playbook, then each play, its pattern and the hosts it would run
     * on, in inventory order. The plan read no Redis, so the order and batches a rollout takes (replicas
     * first) are not known here: a {@code --check} run shows them.
     */
    public static void hostList(Path playbook, RunPlan plan, PrintWriter out) {
        out.println("playbook: " + playbook);
        int n = 0;
        for (RunPlan.PlannedPlay play : plan.plays()) {
            out.println();
            out.println("  play #" + (++n) + " (" + play.play().hosts() + "): "
                    + play.play().name());
            out.println("    pattern: " + play.play().hosts());
            out.println("    hosts (" + play.hosts().size() + "):");
            for (Host host : play.hosts()) {
                out.println("      " + host.name());
            }
        }
        if (!plan.plays().isEmpty()) {
            out.println();
            out.println("The order and batches of a rollout come from Redis (replicas first): --check shows them.");
        }
        out.flush();
    }

    /** Like ansible-playbook --syntax-check: the playbook named, once everything it needs has been read. */
    public static void syntaxChecked(Path playbook, PrintWriter out) {
        out.println("playbook: " + playbook);
        out.println("syntax ok: the playbook and the inventory were read; no host was contacted (a host's variables"
                + " are evaluated, and vaulted ones decrypted, when a run uses them)");
        out.flush();
    }

    /**
     * {@code --list-hosts --format json}: the same plays and hosts as one JSON document ({@link HostListReport}),
     * connecting to nothing.
     */
    public static void hostListJson(RunPlan plan, PrintWriter out) {
        List<HostListReport.PlayHosts> plays = new ArrayList<>();
        for (RunPlan.PlannedPlay play : plan.plays()) {
            plays.add(new HostListReport.PlayHosts(
                    play.play().name(),
                    play.play().hosts(),
                    play.hosts().stream().map(Host::name).toList()));
        }
        out.print(ReportJson.write(new HostListReport(HostListReport.SCHEMA_VERSION, plays)));
        out.flush();
    }

    /**
     * Like {@code ansible-playbook --list-tasks} and {@code --list-tags}, line for line: per play its number, host
     * pattern, name and own tags; with {@code tasks}, each step the tags select and its tags; with {@code tags},
     * the tags of the play and of those steps ({@code TASK TAGS}). Tools that read Ansible's listing read this.
     */
    public static void taskListing(TaskListing listing, boolean tasks, boolean tags, PrintWriter out) {
        out.println();
        out.println("playbook: " + listing.playbook());
        for (TaskListing.PlayTasks play : listing.plays()) {
            out.println();
            out.println("  play #" + play.number() + " (" + play.hosts() + "): " + play.name() + "\tTAGS: ["
                    + String.join(",", play.tags()) + "]");
            if (tasks) {
                out.println("    tasks:");
                for (TaskListing.ListedStep step : play.steps()) {
                    out.println("      " + step.name() + "\tTAGS: [" + String.join(", ", step.tags()) + "]");
                }
            }
            if (tags) {
                out.println("      TASK TAGS: [" + String.join(", ", play.taskTags()) + "]");
            }
            out.println();
        }
        out.flush();
    }

    /**
     * What listens to an apply run: the console (on {@code human}), the report files in {@code reportDir} when
     * given, which is checked (and made) now, before any host is contacted, and with {@code json} the report as one
     * JSON document printed there when the run ends.
     *
     * @throws dev.fleetfix.InputException when the report files cannot be written there
     */
    public static RunListener listener(
            PrintWriter human,
            boolean color,
            Screen screen,
            boolean diff,
            Optional<Path> reportDir,
            Optional<PrintWriter> json) {
        reportDir.ifPresent(ReportFiles::prepare);
        List<RunListener> listeners = new ArrayList<>();
        listeners.add(new ConsoleReporter(human, color, diff, screen));
        List<FileReporter.Output> reports = new ArrayList<>();
        json.ifPresent(out -> reports.add(FileReporter.Output.printed(ReportFormat.JSON, out)));
        reportDir.ifPresent(dir -> reports.addAll(ReportFiles.outputs(dir)));
        if (!reports.isEmpty()) {
            listeners.add(new FileReporter(reports));
        }
        return RunListener.all(listeners);
    }

    /**
     * After the run: the report files written into {@code reportDir} (when given), the journal, and
     * how to continue a run that did not end ok.
     */
    public static void ending(ApplyResult result, Optional<Path> reportDir, PrintWriter out) {
        if (reportDir.isPresent()) {
            out.println();
            ReportFiles.paths(reportDir.get()).forEach(p -> out.println("report: " + p));
            out.flush();
        }
        if (result.journal().isEmpty()) {
            return;
        }
        out.println("journal: " + result.journal().get());
        if (result.summary().outcome() != RunOutcome.OK) {
            out.println(
                    "continue with: fleetfix apply --resume " + result.runDir().orElseThrow());
        }
        out.flush();
    }
}
