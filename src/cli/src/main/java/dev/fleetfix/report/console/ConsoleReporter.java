package dev.fleetfix.report.console;

import dev.fleetfix.Counts;
import dev.fleetfix.Durations;
import dev.fleetfix.bench.BenchResult;
import dev.fleetfix.bench.Metric;
import dev.fleetfix.health.GateResult;
import dev.fleetfix.health.Wait;
import dev.fleetfix.report.Elapsed;
import dev.fleetfix.report.HostText;
import dev.fleetfix.report.files.ReportCollector;
import dev.fleetfix.rollout.event.BatchStarted;
import dev.fleetfix.rollout.event.BenchmarkFinished;
import dev.fleetfix.rollout.event.GateChecked;
import dev.fleetfix.rollout.event.HostFinished;
import dev.fleetfix.rollout.event.PlayHalted;
import dev.fleetfix.rollout.event.PlayStarted;
import dev.fleetfix.rollout.event.Progressed;
import dev.fleetfix.rollout.event.RunEnded;
import dev.fleetfix.rollout.event.RunEvent;
import dev.fleetfix.rollout.event.RunListener;
import dev.fleetfix.rollout.event.RunStarted;
import dev.fleetfix.rollout.event.StepFinished;
import dev.fleetfix.rollout.event.StepStarted;
import dev.fleetfix.rollout.event.Waiting;
import dev.fleetfix.rollout.event.WindowClosed;
import dev.fleetfix.steps.model.FileDiff;
import dev.fleetfix.steps.model.StepStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Live progress and an Ansible-like recap on a terminal. One line per finished step, prefixed with
 * the time since the run started; diffs with {@code --diff}; at the end a recap of
 * ok/changed/failed/skipped/unreachable per host, and done/failed/untouched when the run halted. A long
 * step's progress, and a wait's after it was announced, show as a live line paced by {@link LiveLine}.
 */
public final class ConsoleReporter implements RunListener {
    private final PrintWriter out;
    private final Ansi ansi;
    private final boolean showDiffs;
    private final ReportCollector collector = new ReportCollector();
    private final LiveLine live;
    private final Screen screen;
    /** When each host's current step started, for the progress lines. */
    private final Map<String, Instant> stepStarts = new HashMap<>();
    /** The waits announced already (host, step, what): later news of them is progress. */
    private final Set<String> announced = new HashSet<>();

    private Instant start;
    private boolean check;

    /**
     * @param out where to print
     * @param color whether to use ANSI colours (the CLI decides: a terminal, no --no-color)
     * @param showDiffs print file diffs (--diff)
     */
    public ConsoleReporter(PrintWriter out, boolean color, boolean showDiffs) {
        this(out, color, showDiffs, Screen.pipe());
    }

    /** @param screen a terminal (progress rewritten in place) or not */
    public ConsoleReporter(PrintWriter out, boolean color, boolean showDiffs, Screen screen) {
        this.out = out;
        this.ansi = new Ansi(color);
        this.showDiffs = showDiffs;
        this.live = new LiveLine(out, screen);
        this.screen = screen;
    }

    @Override
    public void on(RunEvent event) {
        collector.on(event);
        if (event instanceof Progressed e) {
            progressed(e);
            return;
        }
        if (event instanceof Waiting e
                && !announced.add(
                        e.host() + "\n" + e.step() + "\n" + e.pending().what())) {
            live.progress(e.host(), e.pending().what(), Instant.MIN, e.at(), waitingText(e));
            return;
        }
        live.clear();
        if (event instanceof StepStarted e) {
            stepStarts.put(e.host(), e.at());
        } else if (event instanceof RunStarted e) {
            started(e);
        } else if (event instanceof PlayStarted e) {
            play(e);
        } else if (event instanceof BatchStarted e) {
            line(e.at(), ansi.bold("BATCH " + e.number() + "/" + e.of()) + " " + String.join(", ", e.hosts()));
        } else if (event instanceof StepFinished e) {
            live.forget(e.host());
            step(e);
        } else if (event instanceof BenchmarkFinished e) {
            benchmark(e);
        } else if (event instanceof GateChecked e) {
            gate(e);
        } else if (event instanceof Waiting e) {
            waiting(e);
        } else if (event instanceof HostFinished e) {
            host(e);
        } else if (event instanceof PlayHalted e) {
            halted(e);
        } else if (event instanceof WindowClosed e) {
            window(e);
        } else if (event instanceof RunEnded e) {
            out.println();
            Recap.print(out, ansi, collector.report());
        }
        out.flush();
    }

    private void started(RunStarted e) {
        start = e.at();
        check = e.check();
        String mode = e.check() ? " (check mode: nothing is changed)" : "";
        String tags = e.tags().isDefault() ? "" : ", tags: " + e.tags().describe();
        println(ansi.bold("RUN " + e.playbook() + mode) + ": "
                + Counts.of(e.hosts().size(), "host") + ", forks " + e.forks() + tags);
    }

    private void play(PlayStarted e) {
        out.println();
        if (e.emptiedByTags()) {
            println(ansi.bold("PLAY [" + e.play() + "]") + " skipping: the tags leave out every step ("
                    + String.join(", ", e.leftOutByTags()) + ")");
            return;
        }
        if (e.batches().isEmpty()) {
            // Ansible's words: the play's hosts and --limit have no host in common.
            println(ansi.bold("PLAY [" + e.play() + "]") + " skipping: no hosts matched");
            return;
        }
        StringBuilder batches = new StringBuilder();
        for (List<String> b : e.batches()) {
            batches.append(" [").append(String.join(", ", b)).append(']');
        }
        println(ansi.bold("PLAY [" + e.play() + "]") + " "
                + Counts.of(e.batches().size(), "batch") + ":" + batches
                + e.window().map(w -> ", window " + w).orElse(""));
        e.notes().forEach(note -> println("  " + note));
        if (!e.leftOutByTags().isEmpty()) {
            // ansible-playbook shows nothing of a task its tags leave out; a rollout says what it will not do
            println("  left out by tags: " + String.join(", ", e.leftOutByTags()));
        }
    }

    private void step(StepFinished e) {
        StepStatus status = e.result().status();
        String word = status.name().toLowerCase(Locale.ROOT);
        if (check && status == StepStatus.CHANGED) {
            word = "would change";
        } else if (check && status == StepStatus.OK && wouldWait(e)) {
            word = "would wait";
        }
        String retries = e.attempts() > 1 ? " [" + e.attempts() + " attempts]" : "";
        line(
                e.at(),
                ansi.status(status, word + ":") + " [" + e.host() + "] " + e.step() + ": " + detail(e) + " ("
                        + Elapsed.human(e.elapsed()) + ")" + retries);
        if (showDiffs) {
            for (FileDiff diff : e.result().diffs()) {
                for (String l : diff.unifiedDiff().split("\n")) {
                    out.println("    " + ansi.diffLine(HostText.clean(l)));
                }
            }
        }
    }

    /** Check mode: a gate seen not passing now, which apply would wait for. */
    private static boolean wouldWait(StepFinished e) {
        return e.result().gates().stream()
                .flatMap(g -> g.parts().isEmpty() ? java.util.stream.Stream.of(g) : g.parts().stream())
                .anyMatch(g -> g.predicted() && !g.passed());
    }

    private static String detail(StepFinished e) {
        return HostText.oneLine(e.result().message());
    }

    private void benchmark(BenchmarkFinished e) {
        String phase = e.run().controlFor().isPresent()
                ? (e.run().phase() == dev.fleetfix.bench.Phase.CONTROL_BEFORE ? "before" : "after") + ", control "
                        + HostText.clean(e.run().host())
                : e.run().phase().name().toLowerCase(Locale.ROOT);
        for (BenchResult r : e.run().results()) {
            StringBuilder figures = new StringBuilder(String.format(Locale.ROOT, "%,.0f rps", r.rps()));
            for (Metric m : List.of(Metric.P50, Metric.P99, Metric.P999, Metric.MAX)) {
                m.valueOf(r).ifPresent(v -> figures.append(String.format(Locale.ROOT, " %s=%.3fms", m.label(), v)));
            }
            String point = e.run().point().map(p -> " at " + p.label()).orElse("");
            println("      benchmark " + e.run().name() + " " + phase + point + " " + HostText.clean(r.test()) + ": "
                    + figures);
        }
    }

    private void gate(GateChecked e) {
        for (GateResult part :
                e.result().parts().isEmpty() ? List.of(e.result()) : e.result().parts()) {
            if (part.predicted()) {
                String now = part.passed() ? ansi.green("passes") : ansi.yellow("not yet");
                println("      gate " + part.gate() + " now: " + now + " (" + HostText.oneLine(part.detail()) + "); "
                        + part.forecast().get());
                continue;
            }
            String word = part.passed() ? "passed" : "FAILED";
            println("      gate " + part.gate() + " " + (part.passed() ? ansi.green(word) : ansi.red(word)) + " in "
                    + Elapsed.human(part.elapsed()) + ": " + HostText.clean(part.detail()));
        }
    }

    private void waiting(Waiting e) {
        line(e.at(), ansi.yellow("waiting:") + waitingDetail(e));
        live.shown(e.host(), e.pending().what(), e.at());
    }

    /** Later news of an announced wait, as a live line. */
    private String waitingText(Waiting e) {
        return elapsed(e.at()) + " waiting:" + waitingDetail(e);
    }

    private static String waitingDetail(Waiting e) {
        Wait w = e.pending();
        String so = w.waited().isZero() ? "" : ", " + Elapsed.human(w.waited()) + " so far";
        String seen = w.lastSeen().isBlank() ? "" : "; now: " + HostText.oneLine(w.lastSeen());
        return " [" + e.host() + "] " + e.step() + ": " + w.what() + ", at most " + Durations.seconds(w.atMost()) + so
                + seen;
    }

    /** A long step's progress: what runs, how far it got, and how long the step has run. */
    private void progressed(Progressed e) {
        Instant since = stepStarts.getOrDefault(e.host(), e.at());
        String sofar = e.progress().sofar().isBlank()
                ? ""
                : ": " + HostText.oneLine(e.progress().sofar());
        live.progress(
                e.host(),
                e.progress().what(),
                since,
                e.at(),
                elapsed(e.at()) + " running: [" + e.host() + "] " + e.step() + ": "
                        + e.progress().what() + sofar + " (" + Elapsed.human(Duration.between(since, e.at())) + ")");
    }

    private void host(HostFinished e) {
        String text =
                switch (e.outcome()) {
                    case DONE -> ansi.green("done");
                    case FAILED -> ansi.red("FAILED: " + HostText.oneLine(e.reason()));
                    case UNREACHABLE -> ansi.red("UNREACHABLE: " + HostText.oneLine(e.reason()));
                    case UNTOUCHED -> "untouched";
                };
        line(e.at(), "host " + e.host() + " " + text + " (" + Elapsed.human(e.elapsed()) + ")");
    }

    private void halted(PlayHalted e) {
        out.println();
        line(
                e.at(),
                ansi.red("HALTED [" + e.play() + "]: " + HostText.clean(e.reason())) + "; no new host will be started");
    }

    private void window(WindowClosed e) {
        out.println();
        if (e.beforeStart() && check) {
            line(
                    e.at(),
                    ansi.red("OUTSIDE THE WINDOW: " + e.window() + " is closed now (" + e.localTime()
                            + "); apply now would be refused and touch no host"));
        } else if (e.beforeStart()) {
            line(
                    e.at(),
                    ansi.red("REFUSED: outside the change window " + e.window() + " (now " + e.localTime()
                            + "); no host touched"));
        } else {
            line(
                    e.at(),
                    ansi.red("WINDOW CLOSED: " + e.window() + " closed (now " + e.localTime()
                            + "); hosts in flight finished, no new host started"));
        }
    }

    private void line(Instant at, String text) {
        println(elapsed(at) + " " + text);
    }

    /**
     * A line no wider than the screen: what does not fit goes on the next lines, indented under the line's text
     * (under the time of a timed line, four spaces further than the line's own indent otherwise).
     */
    private void println(String text) {
        int own = text.length() - text.stripLeading().length();
        String indent = text.startsWith("[") && text.indexOf("] ") == TIME_WIDTH - 2
                ? " ".repeat(TIME_WIDTH + 2)
                : " ".repeat(own + 4);
        screen.wrap(text, indent).forEach(out::println);
    }

    /** {@code [00:42] }: the width of a line's time. */
    private static final int TIME_WIDTH = 8;

    private String elapsed(Instant at) {
        if (start == null) {
            return "[--:--]";
        }
        long s = Math.max(0, Duration.between(start, at).toSeconds());
        return String.format(Locale.ROOT, "[%02d:%02d]", s / 60, s % 60);
    }
}
