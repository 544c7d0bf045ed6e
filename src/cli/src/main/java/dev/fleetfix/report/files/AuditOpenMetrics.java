package dev.fleetfix.report.files;

import dev.fleetfix.checks.AuditSummary;
import dev.fleetfix.checks.Finding;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.HostFacts;
import dev.fleetfix.checks.HostVerdict;
import dev.fleetfix.checks.RedisFacts;
import dev.fleetfix.checks.ThpMode;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The audit in the OpenMetrics text format, for node_exporter's textfile collector or any scraper. Only gauges are
 * written (no info or stateset types), so the classic Prometheus text parser reads the file as well.
 *
 * <p>The names below are a stable contract, documented in docs/audit.md. A state (a verdict, a THP mode) is written
 * in one of two {@link States styles}: {@code expanded} (the default, the contract since the first release), one
 * series per possible value with 1 for the current one and 0 for the others, so a change of state is a change of
 * value rather than a vanished series; or {@code compact}, the current value only, as node_exporter writes enums,
 * about a quarter of the series for a large fleet. An alert that matches {@code == 1} reads both.
 *
 * <pre>
 * fleetfix_build_info{version}                                  1, the label carries fleetfix's version
 * fleetfix_audit_timestamp_seconds                              when the audit ran
 * fleetfix_audit_duration_seconds                               how long the audit of the whole fleet took
 * fleetfix_audit_hosts{verdict}                                 hosts per verdict
 * fleetfix_host_verdict{host,verdict}                           1 for the host's verdict (ok, at-risk, unreachable)
 * fleetfix_host_finding{host,code,severity}                     1 per finding (risk or advice) of the host
 * fleetfix_thp_enabled{host,mode}                               1 for THP's current mode, 0 for the others
 * fleetfix_thp_defrag{host,mode}                                the same for defrag
 * fleetfix_thp_enabled_after_reboot{host,mode}                  1 for the mode the host will boot with
 * fleetfix_vm_overcommit_memory{host}                           the sysctl's value
 * fleetfix_net_core_somaxconn{host}                             the sysctl's value
 * fleetfix_redis_up{host,endpoint}                              1 when Redis answered
 * fleetfix_redis_info{host,endpoint,flavour,version,role}       1, labels carry the facts
 * fleetfix_redis_disable_thp{host,endpoint}                     1 when Redis opts out of THP, 0 when not
 * fleetfix_redis_tcp_backlog{host,endpoint}                     Redis's tcp-backlog
 * fleetfix_redis_anon_huge_pages_bytes{host}                    huge pages the Redis process holds
 * </pre>
 *
 * A fact the audit could not read has no sample: absence means unknown, never 0.
 */
public final class AuditOpenMetrics {
    /** The modes THP's {@code enabled} file can take (the kernel offers no defer there). */
    private static final List<ThpMode> ENABLED_MODES = List.of(ThpMode.ALWAYS, ThpMode.MADVISE, ThpMode.NEVER);

    private static final List<ThpMode> DEFRAG_MODES =
            List.of(ThpMode.ALWAYS, ThpMode.DEFER, ThpMode.DEFER_MADVISE, ThpMode.MADVISE, ThpMode.NEVER);

    /** How a state (a verdict, a THP mode) is written. */
    public enum States {
        /** One series per possible value: 1 for the current one, 0 for the others. */
        EXPANDED,
        /** The current value only, as one labelled sample of 1. */
        COMPACT
    }

    /** What the exposition says about the run itself, besides the hosts' audits. */
    public record Run(Instant at, Duration took, String version) {}

    private final Map<String, Gauge> gauges = new LinkedHashMap<>();
    private final States states;

    private AuditOpenMetrics(States states) {
        this.states = states;
    }

    /** The audit of {@code audits} as an OpenMetrics text exposition ending in {@code # EOF}. */
    public static String render(List<HostAudit> audits, Run run, States states) {
        AuditOpenMetrics metrics = new AuditOpenMetrics(states);
        metrics.fleet(audits, run);
        audits.forEach(metrics::host);
        return metrics.write();
    }

    private void fleet(List<HostAudit> audits, Run run) {
        gauge("fleetfix_build_info", "Always 1; the label carries the version of fleetfix that wrote the metrics.")
                .add(1, "version", run.version());
        gauge("fleetfix_audit_timestamp_seconds", "When the audit ran, in seconds since the epoch.")
                .add(run.at().toEpochMilli() / 1000.0);
        gauge("fleetfix_audit_duration_seconds", "How long the audit of all hosts took, in seconds.")
                .add(run.took().toMillis() / 1000.0);
        AuditSummary summary = AuditSummary.of(audits);
        Gauge hosts = gauge("fleetfix_audit_hosts", "Audited hosts per verdict.");
        hosts.add(summary.ok(), "verdict", HostVerdict.OK.word());
        hosts.add(summary.atRisk(), "verdict", HostVerdict.AT_RISK.word());
        hosts.add(summary.unreachable(), "verdict", HostVerdict.UNREACHABLE.word());
    }

    private void host(HostAudit audit) {
        String host = audit.host();
        Gauge verdict = gauge("fleetfix_host_verdict", "1 for the host's audit verdict, 0 for the others.");
        for (HostVerdict v : HostVerdict.values()) {
            state(verdict, v == audit.verdict(), "host", host, "verdict", v.word());
        }
        Gauge findings = gauge("fleetfix_host_finding", "1 for each finding of the host (severity risk or advice).");
        for (Finding finding : audit.findings()) {
            findings.add(
                    1,
                    "host",
                    host,
                    "code",
                    finding.code(),
                    "severity",
                    finding.severity().word());
        }
        audit.facts().ifPresent(facts -> facts(host, facts));
    }

    private void facts(String host, HostFacts facts) {
        modes(
                "fleetfix_thp_enabled",
                "1 for THP's current enabled mode, 0 for the others.",
                host,
                facts.thp().enabled(),
                ENABLED_MODES);
        modes(
                "fleetfix_thp_defrag",
                "1 for THP's current defrag mode, 0 for the others.",
                host,
                facts.thp().defrag(),
                DEFRAG_MODES);
        modes(
                "fleetfix_thp_enabled_after_reboot",
                "1 for the THP mode the host will boot with, 0 for the others.",
                host,
                facts.boot().enabledAfterReboot(),
                ENABLED_MODES);
        value("fleetfix_vm_overcommit_memory", "The vm.overcommit_memory sysctl.", host, facts.overcommitMemory());
        value("fleetfix_net_core_somaxconn", "The net.core.somaxconn sysctl.", host, facts.somaxconn());
        redis(host, facts.redis());
        OptionalLong hugeKb = facts.redisProcess().anonHugePagesKb();
        if (hugeKb.isPresent()) {
            gauge("fleetfix_redis_anon_huge_pages_bytes", "Transparent huge pages held by the Redis process.")
                    .add(hugeKb.getAsLong() * 1024.0, "host", host);
        }
    }

    private void redis(String host, RedisFacts redis) {
        String endpoint = redis.endpoint();
        gauge("fleetfix_redis_up", "1 when Redis answered the audit, 0 when it did not.")
                .add(redis.reachable() ? 1 : 0, "host", host, "endpoint", endpoint);
        if (!redis.reachable()) {
            return;
        }
        gauge(
                        "fleetfix_redis_info",
                        "Always 1; the labels carry the server's flavour (redis, valkey), version and role.")
                .add(
                        1,
                        "host",
                        host,
                        "endpoint",
                        endpoint,
                        "flavour",
                        redis.flavourTitle().toLowerCase(Locale.ROOT),
                        "version",
                        redis.version().orElse(""),
                        "role",
                        redis.role().orElse(""));
        redis.disableThp().ifPresent(optOut -> gauge(
                        "fleetfix_redis_disable_thp", "1 when Redis turns THP off for itself (disable-thp).")
                .add(optOut ? 1 : 0, "host", host, "endpoint", endpoint));
        OptionalInt backlog = redis.tcpBacklog();
        if (backlog.isPresent()) {
            gauge("fleetfix_redis_tcp_backlog", "Redis's tcp-backlog setting.")
                    .add(backlog.getAsInt(), "host", host, "endpoint", endpoint);
        }
    }

    private void modes(String name, String help, String host, Optional<ThpMode> current, List<ThpMode> possible) {
        if (current.isEmpty() || current.get() == ThpMode.UNSUPPORTED) {
            return;
        }
        Gauge gauge = gauge(name, help);
        for (ThpMode mode : possible) {
            state(gauge, mode == current.get(), "host", host, "mode", mode.word());
        }
    }

    /** One possible value of a state: always written when expanded, only the current one when compact. */
    private void state(Gauge gauge, boolean current, String... labels) {
        if (current || states == States.EXPANDED) {
            gauge.add(current ? 1 : 0, labels);
        }
    }

    private void value(String name, String help, String host, OptionalInt value) {
        if (value.isPresent()) {
            gauge(name, help).add(value.getAsInt(), "host", host);
        }
    }

    private Gauge gauge(String name, String help) {
        return gauges.computeIfAbsent(name, n -> new Gauge(n, help));
    }

    private String write() {
        List<MetricSnapshot> snapshots = new ArrayList<>();
        gauges.values().stream().filter(Gauge::hasPoints).forEach(g -> snapshots.add(g.snapshot()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            OpenMetricsTextFormatWriter.create().write(out, new MetricSnapshots(snapshots));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** One gauge family being filled; label values are passed as name, value pairs. */
    private static final class Gauge {
        private final GaugeSnapshot.Builder builder;
        private boolean points;

        Gauge(String name, String help) {
            builder = GaugeSnapshot.builder().name(name).help(help);
        }

        void add(double value, String... labels) {
            builder.dataPoint(GaugeDataPointSnapshot.builder()
                    .value(value)
                    .labels(Labels.of(labels))
                    .build());
            points = true;
        }

        boolean hasPoints() {
            return points;
        }

        GaugeSnapshot snapshot() {
            return builder.build();
        }
    }
}
