package dev.fleetfix.checks;

import java.util.List;

/** How many hosts got each verdict. */
public record AuditSummary(int hosts, int ok, int atRisk, int unreachable) {

    public AuditSummary {
        if (ok < 0 || atRisk < 0 || unreachable < 0 || ok + atRisk + unreachable != hosts) {
            throw new IllegalArgumentException("summary counts must add up to hosts (" + hosts + "), were ok " + ok
                    + ", at-risk " + atRisk + ", unreachable " + unreachable);
        }
    }

    public static AuditSummary of(List<HostAudit> audits) {
        return new AuditSummary(
                audits.size(),
                count(audits, HostVerdict.OK),
                count(audits, HostVerdict.AT_RISK),
                count(audits, HostVerdict.UNREACHABLE));
    }

    /** Whether every host is ok: the audit's exit code is 0 only then. */
    public boolean allOk() {
        return ok == hosts;
    }

    private static int count(List<HostAudit> audits, HostVerdict verdict) {
        return (int) audits.stream().filter(a -> a.verdict() == verdict).count();
    }
}
