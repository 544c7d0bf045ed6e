package dev.fleetfix.report;

import dev.fleetfix.inventory.Host;
import dev.fleetfix.rollout.ApplyService.ApplyResult;
import dev.fleetfix.rollout.RunPlan;
import dev.fleetfix.rollout.TaskListing;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunOutcome;
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

    /** Like ansible-playbook --list-hosts: each play and the hosts it would run on, batch by batch. */
    public static void hostList(RunPlan plan, PrintWriter out) {
        for (RunPlan.PlannedPlay play : plan.plays()) {
            out.println("play [" + play.play().name() + "] (" + play.hosts().size() + " hosts)");
            int n = 0;
            for (List<Host> batch : play.batches().batches()) {
                out.println("  batch " + (++n) + ": "
                        + String.join(", ", batch.stream().map(Host::name).toList()));
            }
            for (String note : play.batches().notes()) {
                out.println("  " + note);
            }
        }
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
     * What listens to an apply run: the console, and the report files in {@code reportDir} when
     * given, which is checked (and made) now, before any host is contacted.
     *
     * @throws dev.fleetfix.InputException when the report files cannot be written there
     */
    public static RunListener listener(PrintWriter out, boolean color, boolean diff, Optional<Path> reportDir) {
        reportDir.ifPresent(ReportFiles::prepare);
        List<RunListener> listeners = new ArrayList<>();
        listeners.add(new ConsoleReporter(out, color, diff));
        reportDir.ifPresent(dir -> listeners.addAll(ReportFiles.reporters(dir)));
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
