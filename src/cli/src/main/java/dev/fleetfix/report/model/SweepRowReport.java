package dev.fleetfix.report.model;

/**
 * One point of a sweep on one host, for one test: medians over its rounds. The rounds themselves
 * are in {@code runs}, each with its {@code point}.
 *
 * @param rounds how many rounds measured this point
 * @param rps median requests per second
 * @param p50 median of the rounds' p50 in ms; null when the engine does not report it
 * @param p99 median of the rounds' p99 in ms; null when unknown
 * @param p999 median of the rounds' p99.9 in ms; null when unknown
 */
public record SweepRowReport(
        String host,
        String name,
        String test,
        SweepPointReport point,
        int rounds,
        double rps,
        Double p50,
        Double p99,
        Double p999) {}
