package dev.fleetfix.checks;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The audit of one host: its verdict, the reasons for it, and the facts behind them.
 *
 * @param host inventory name
 * @param verdict ok, at-risk or unreachable
 * @param findings reasons and advice in plain words, risks first
 * @param facts what was found; empty when the host was unreachable
 */
public record HostAudit(String host, HostVerdict verdict, List<Finding> findings, Optional<HostFacts> facts) {

    public HostAudit {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(facts, "facts");
        findings = List.copyOf(findings);
        boolean risky = findings.stream().anyMatch(Finding::isRisk);
        if (verdict == HostVerdict.UNREACHABLE ? facts.isPresent() : facts.isEmpty()) {
            throw new IllegalArgumentException(
                    "host " + host + ": facts must be present exactly when the host was reached, verdict " + verdict);
        }
        if (verdict == HostVerdict.OK && risky) {
            throw new IllegalArgumentException("host " + host + ": verdict ok with a risk finding");
        }
        if (verdict == HostVerdict.AT_RISK && !risky) {
            throw new IllegalArgumentException("host " + host + ": verdict at-risk without a risk finding");
        }
    }

    /** A host that could not be reached; {@code reason} is the transport's message. */
    public static HostAudit unreachable(String host, String reason) {
        return new HostAudit(
                host, HostVerdict.UNREACHABLE, List.of(Finding.risk("unreachable", reason)), Optional.empty());
    }
}
