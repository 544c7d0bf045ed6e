package dev.fleetfix.rollout.event;

import java.time.Instant;

/**
 * What the engine tells reporters. The engine formats nothing; console, JSON, JUnit and HTML
 * reporters are {@link RunListener}s on this stream. Events of one host arrive in order; events of
 * hosts running in parallel interleave. Listeners are called one event at a time.
 */
public sealed interface RunEvent
        permits RunStarted,
                PlayStarted,
                BatchStarted,
                HostStarted,
                StepStarted,
                StepFinished,
                GateChecked,
                Waiting,
                Progressed,
                BenchmarkFinished,
                HostFinished,
                PlayHalted,
                WindowClosed,
                RunEnded {

    /** When it happened, on the run's clock. */
    Instant at();
}
