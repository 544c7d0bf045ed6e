package dev.fleetfix.steps.benchmark;

import dev.fleetfix.playbook.StepDoc;
import java.util.ArrayList;
import java.util.List;

/** What {@code fleetfix doc benchmark} says: the step's summary, its example and each argument, in that order. */
public final class BenchmarkDoc {
    private BenchmarkDoc() {}

    public static StepDoc of() {
        List<StepDoc.Arg> args = new ArrayList<>(sides());
        args.addAll(timing());
        args.addAll(workload());
        args.addAll(options());
        return new StepDoc(
                "Measures the host's Redis before and after a change; the recap gives a verdict per host and fleet.",
                "- benchmark: {name: thp, phase: before, profile: auto, duration: 3s, rounds: 7}",
                args);
    }

    /** Which runs a comparison pairs, and with which engine and profile. */
    private static List<StepDoc.Arg> sides() {
        return List.of(
                new StepDoc.Arg(
                        "name",
                        "text ([A-Za-z0-9_.-])",
                        "benchmark",
                        "- benchmark: {name: thp, phase: before}",
                        "Pairs a before run with the after run of the same name."),
                new StepDoc.Arg(
                        "phase",
                        "before|after",
                        "required (not for a sweep)",
                        "- benchmark: {name: thp, phase: after}",
                        "Which side of the change this run measures."),
                new StepDoc.Arg(
                        "engine",
                        "builtin|redis-benchmark",
                        "builtin",
                        "- benchmark: {phase: before, engine: redis-benchmark}",
                        "The builtin client from this machine, or redis-benchmark on the host."),
                new StepDoc.Arg(
                        "profile",
                        "plain|fork-under-load|auto",
                        "plain",
                        "- benchmark: {phase: before, profile: auto}",
                        "fork-under-load writes while BGSAVE forks; auto picks it where persistence allows (the after run uses what the before run used)."));
    }

    /** How long each round runs and how the client loads the host. */
    private static List<StepDoc.Arg> timing() {
        return List.of(
                new StepDoc.Arg(
                        "duration",
                        "duration",
                        "2s (10s for a sweep)",
                        "- benchmark: {phase: before, duration: 3s}",
                        "How long each round runs (or give requests)."),
                new StepDoc.Arg(
                        "requests",
                        "whole number",
                        "100000 for redis-benchmark; the builtin engine runs for duration",
                        "- benchmark: {phase: before, requests: 50000}",
                        "Requests per round instead of a duration."),
                new StepDoc.Arg(
                        "warmup",
                        "duration, or 0",
                        "2s",
                        "- benchmark: {phase: before, warmup: 0}",
                        "A discarded warm-up before the measured rounds."),
                new StepDoc.Arg(
                        "connections",
                        "whole number",
                        "10",
                        "- benchmark: {phase: before, connections: 50}",
                        "Client connections."),
                new StepDoc.Arg(
                        "pipeline",
                        "whole number",
                        "1",
                        "- benchmark: {phase: before, pipeline: 16}",
                        "Requests in flight per connection."));
    }

    /** What each round writes and reads, and how many rounds a side. */
    private static List<StepDoc.Arg> workload() {
        return List.of(
                new StepDoc.Arg(
                        "value_size",
                        "bytes, or a list of them for a sweep",
                        "64",
                        "- benchmark: {name: sizes, value_size: [64, 1024, 16384]}",
                        "Value size; a list makes a sweep that compares its points."),
                new StepDoc.Arg(
                        "keyspace",
                        "whole number",
                        "100000",
                        "- benchmark: {phase: before, keyspace: 1000000}",
                        "How many distinct keys are written."),
                new StepDoc.Arg(
                        "rate",
                        "requests per second",
                        "none: as fast as the host answers",
                        "- benchmark: {phase: before, rate: 20000}",
                        "An open-loop rate instead of a closed loop."),
                new StepDoc.Arg(
                        "rounds",
                        "whole number",
                        "7 (8 with redis-benchmark, 5 for a sweep)",
                        "- benchmark: {phase: before, rounds: 9}",
                        "Rounds per side; fewer than the verdict needs to call a change are refused."),
                new StepDoc.Arg(
                        "tests",
                        "list of set, get, ...",
                        "[set, get]",
                        "- benchmark: {phase: before, tests: [set, get]}",
                        "The commands measured, each on its own."),
                new StepDoc.Arg(
                        "mix",
                        "mapping of command to weight",
                        "none",
                        "- benchmark: {phase: before, mix: {set: 3, get: 1}}",
                        "One test mixing commands by weight, instead of tests."));
    }

    /** What the step may touch, and the design's options. */
    private static List<StepDoc.Arg> options() {
        return List.of(
                new StepDoc.Arg(
                        "force",
                        "boolean",
                        "false",
                        "- benchmark: {phase: before, force: true}",
                        "Run on a nearly full or evicting primary (never where maxmemory leaves no room)."),
                new StepDoc.Arg(
                        "prefix",
                        "text",
                        "fleetfix:bench:",
                        "- benchmark: {phase: before, prefix: \"bench:thp:\"}",
                        "The only keys it writes, and deletes afterwards."),
                new StepDoc.Arg(
                        "bgsave_interval",
                        "duration",
                        "1500ms",
                        "- benchmark: {phase: before, profile: fork-under-load, bgsave_interval: 3s}",
                        "fork-under-load: the pause between two BGSAVEs."),
                new StepDoc.Arg(
                        "threads",
                        "whole number",
                        "redis-benchmark's own",
                        "- benchmark: {phase: before, engine: redis-benchmark, threads: 4}",
                        "redis-benchmark's --threads (that engine only)."),
                new StepDoc.Arg(
                        "calibrate",
                        "boolean",
                        "false",
                        "- benchmark: {phase: before, calibrate: true}",
                        "Measure the before side twice; the A/A difference becomes each figure's floor (before only)."),
                new StepDoc.Arg(
                        "tcp_nodelay",
                        "on|off, or [on, off] for a sweep",
                        "the client's default",
                        "- benchmark: {name: nodelay, tcp_nodelay: [on, off]}",
                        "TCP_NODELAY of the client's sockets; a list makes a sweep."),
                new StepDoc.Arg(
                        "controls",
                        "whole number 0..16",
                        "0",
                        "- benchmark: {phase: before, controls: 2}",
                        "Unchanged hosts of later batches measured beside each side (difference in differences; builtin engine)."));
    }
}
