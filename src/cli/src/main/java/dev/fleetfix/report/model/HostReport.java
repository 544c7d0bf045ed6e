package dev.fleetfix.report.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One host over the whole run.
 *
 * @param name the host's inventory name, written {@code host} (as in every JSON document of fleetfix; schema versions 1
 *     and 2 wrote {@code name})
 * @param outcome {@code done}, {@code failed}, {@code unreachable} or {@code untouched}: the worst
 *     over the plays it was in
 * @param reason why it failed; empty when done
 * @param elapsedMs time spent on it, over all plays
 * @param facts its facts at the end (audit facts such as {@code thp.enabled}, and what steps set)
 * @param thpBefore THP {@code enabled} mode before the run changed it, when known
 * @param thpAfter THP {@code enabled} mode at the end, when known
 * @param steps its step results in the order they ran
 * @param expectation what a THP benchmark should show on this host, from its audit facts (the kernel
 *     era, whether Redis opts out, whether THP's files are the kernel's); null without a kernel fact
 */
public record HostReport(
        @JsonProperty("host") String name,
        String outcome,
        String reason,
        long elapsedMs,
        Map<String, String> facts,
        String thpBefore,
        String thpAfter,
        List<StepReport> steps,
        String expectation) {
    public HostReport {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        reason = reason == null ? "" : reason;
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        steps = List.copyOf(steps);
    }
}
