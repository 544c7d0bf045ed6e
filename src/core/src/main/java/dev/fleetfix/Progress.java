package dev.fleetfix;

import java.util.Objects;

/**
 * How far a long piece of work on one host has got, told while it runs so that no step is silent for
 * long: "benchmark thp round 2/5" and "41,200 rps so far, 4s of 10s". Producers tell it whenever
 * they have news, at least once a second while the work lasts ({@link #EVERY}); a reporter decides
 * what to show (report's {@code LiveLine}, the one place that paces the lines).
 *
 * @param what what runs, in words
 * @param sofar how far it has got, empty when nothing is known yet
 */
public record Progress(String what, String sofar) {
    /** Producers tell their progress at least this often while the work lasts. */
    public static final java.time.Duration EVERY = java.time.Duration.ofSeconds(1);

    public Progress {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(sofar, "sofar");
    }

    /** The same news about something named otherwise ("load" becomes "benchmark thp round 2/5"). */
    public Progress as(String otherWhat) {
        return new Progress(otherWhat, sofar);
    }

    /** Told a long piece of work's progress; may be called from any thread. */
    @FunctionalInterface
    public interface Listener {
        void progress(Progress progress);

        static Listener none() {
            return progress -> {};
        }
    }
}
