package dev.fleetfix.bench;

import java.util.List;
import java.util.Objects;

/** One test (SET, fork-under-load...) of one named benchmark on one host, before against after. */
public record TestComparison(
        String host,
        String name,
        String test,
        int beforeRounds,
        int afterRounds,
        List<MetricComparison> metrics,
        Verdict verdict) {
    public TestComparison {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(verdict, "verdict");
        metrics = List.copyOf(metrics);
    }
}
