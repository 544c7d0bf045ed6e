package dev.fleetfix.report.console;

import dev.fleetfix.Counts;
import dev.fleetfix.checks.AuditSummary;
import dev.fleetfix.checks.BootSource;
import dev.fleetfix.checks.Finding;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.HostFacts;
import dev.fleetfix.checks.RedisFacts;
import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.report.HostText;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The audit as a table for people: one row per host, the findings under it, and a summary line
 * ("3 hosts: 1 ok, 1 at-risk, 1 unreachable").
 */
public final class AuditTable {
    private static final String NONE = "-";
    private static final List<String> HEADER = List.of(
            "HOST",
            "KERNEL",
            "THP ENABLED/DEFRAG",
            "PERSISTED BY",
            "REDIS",
            "DISABLE-THP",
            "OVERCOMMIT",
            "SOMAXCONN/BACKLOG",
            "VERDICT");

    private AuditTable() {}

    public static String render(List<HostAudit> audits) {
        return render(audits, Screen.pipe());
    }

    /** The table; on a terminal, a finding longer than the width goes on on lines indented under its text. */
    public static String render(List<HostAudit> audits, Screen screen) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        audits.forEach(audit -> rows.add(row(audit)));
        int[] widths = widths(rows);
        StringBuilder out = new StringBuilder();
        appendRow(out, HEADER, widths);
        for (int i = 0; i < audits.size(); i++) {
            appendRow(out, rows.get(i + 1), widths);
            for (Finding finding : audits.get(i).findings()) {
                String line = "    " + (finding.isRisk() ? "risk: " : "note: ") + finding.text();
                screen.wrap(line, " ".repeat(10)).forEach(l -> out.append(l).append('\n'));
            }
        }
        out.append('\n').append(summary(AuditSummary.of(audits))).append('\n');
        // facts and findings quote what hosts said; the table has no escapes of its own
        return HostText.clean(out.toString());
    }

    /** "3 hosts: 1 ok, 1 at-risk, 1 unreachable". */
    public static String summary(AuditSummary summary) {
        return Counts.of(summary.hosts(), "host") + ": " + summary.ok() + " ok, " + summary.atRisk() + " at-risk, "
                + summary.unreachable() + " unreachable";
    }

    private static List<String> row(HostAudit audit) {
        if (audit.facts().isEmpty()) {
            return List.of(
                    audit.host(),
                    NONE,
                    NONE,
                    NONE,
                    NONE,
                    NONE,
                    NONE,
                    NONE,
                    audit.verdict().word());
        }
        HostFacts facts = audit.facts().get();
        return List.of(
                audit.host(),
                facts.kernelRelease(),
                thp(facts),
                persistedBy(facts),
                redis(facts.redis()),
                disableThp(facts.redis()),
                number(facts.overcommitMemory()),
                number(facts.somaxconn()) + "/" + number(facts.redis().tcpBacklog()),
                audit.verdict().word());
    }

    private static String thp(HostFacts facts) {
        if (!facts.thp().supported()) {
            return ThpMode.UNSUPPORTED.word();
        }
        return mode(facts.thp().enabled()) + "/" + mode(facts.thp().defrag());
    }

    private static String mode(Optional<ThpMode> mode) {
        return mode.map(ThpMode::word).orElse("?");
    }

    private static String persistedBy(HostFacts facts) {
        List<BootSource> sources = facts.boot().activeSources();
        return sources.isEmpty() ? NONE : sources.stream().map(BootSource::word).collect(Collectors.joining(","));
    }

    private static String redis(RedisFacts redis) {
        if (!redis.reachable()) {
            return redis.authFailed() ? "auth failed" : redis.serverFull() ? "full" : "down";
        }
        // Valkey says so: its version numbers overlap Redis's and mean other things
        String flavour = redis.server()
                .filter(v -> v.flavour() == RedisServer.Flavour.VALKEY)
                .map(v -> "valkey ")
                .orElse("");
        return flavour
                + redis.version().orElse("?")
                + redis.role().map(r -> " " + r).orElse("");
    }

    private static String disableThp(RedisFacts redis) {
        if (redis.disableThp().isPresent()) {
            return redis.disableThp().get() ? "yes" : "no";
        }
        if (redis.reachable() && !redis.canOptOutOfThp()) {
            return "n/a";
        }
        return NONE;
    }

    private static String number(OptionalInt value) {
        return value.isPresent() ? Integer.toString(value.getAsInt()) : NONE;
    }

    private static int[] widths(List<List<String>> rows) {
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        return widths;
    }

    private static void appendRow(StringBuilder out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            line.append(cells.get(i));
            if (i < cells.size() - 1) {
                line.append(" ".repeat(widths[i] - cells.get(i).length() + 2));
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
