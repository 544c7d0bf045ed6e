package dev.fleetfix.report.files;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fleetfix.checks.AuditSummary;
import dev.fleetfix.checks.BootSource;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.HostFacts;
import dev.fleetfix.checks.RedisFacts;
import dev.fleetfix.checks.RedisProcess;
import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.redis.RedisServer;
import dev.fleetfix.report.model.FleetReport;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The audit as JSON for machines, with the same facts as the table. Field names are snake_case and
 * stable: they are named here, in records of their own, not derived from the checks' model, so renaming a
 * fact cannot change them. A fact that is unknown is {@code null}.
 *
 * <pre>
 * {"schema_version": 3, "tool": "fleetfix", "version", "generated_at": ISO-8601 instant,
 *  "hosts": [{"host", "verdict", "findings": [{"severity", "code", "text"}],
 *             "facts": {"kernel", "root", "thp": {...}, "thp_boot": {...}, "vm_overcommit_memory",
 *                       "net_core_somaxconn", "redis": {...}, "redis_process": {...}} or null}],
 *  "summary": {"hosts", "ok", "at_risk", "unreachable"}}
 * </pre>
 */
public final class AuditJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * {@code schema_version}: the one version of every JSON document fleetfix prints ({@link
     * FleetReport#SCHEMA_VERSION}), raised when a field is renamed or removed, never when one is added. The audit's
     * fields are those of its version 1.
     */
    public static final int SCHEMA_VERSION = FleetReport.SCHEMA_VERSION;

    private AuditJson() {}

    /** Without the tool's version and a time: for tests of the facts alone. */
    public static String render(List<HostAudit> audits) {
        return render(audits, "unknown", Instant.EPOCH);
    }

    /**
     * @param version fleetfix's version, as {@code --version} prints it
     * @param at when the audit was made (the injected clock's now)
     */
    public static String render(List<HostAudit> audits, String version, Instant at) {
        AuditSummary summary = AuditSummary.of(audits);
        Audit audit = new Audit(
                SCHEMA_VERSION,
                "fleetfix",
                version,
                at.toString(),
                audits.stream().map(AuditJson::host).toList(),
                new Summary(summary.hosts(), summary.ok(), summary.atRisk(), summary.unreachable()));
        try {
            return MAPPER.writeValueAsString(audit) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    // The document, record by record; the field names and their order are the contract.

    @JsonPropertyOrder({"schema_version", "tool", "version", "generated_at", "hosts", "summary"})
    record Audit(
            @JsonProperty("schema_version") int schemaVersion,
            String tool,
            String version,
            @JsonProperty("generated_at") String generatedAt,
            List<HostJson> hosts,
            Summary summary) {}

    @JsonPropertyOrder({"hosts", "ok", "at_risk", "unreachable"})
    record Summary(int hosts, int ok, @JsonProperty("at_risk") int atRisk, int unreachable) {}

    @JsonPropertyOrder({"host", "verdict", "findings", "facts"})
    record HostJson(String host, String verdict, List<FindingJson> findings, FactsJson facts) {}

    @JsonPropertyOrder({"severity", "code", "text"})
    record FindingJson(String severity, String code, String text) {}

    @JsonPropertyOrder({
        "kernel",
        "root",
        "thp",
        "thp_boot",
        "vm_overcommit_memory",
        "net_core_somaxconn",
        "redis",
        "redis_process"
    })
    record FactsJson(
            String kernel,
            boolean root,
            Thp thp,
            @JsonProperty("thp_boot") Boot thpBoot,
            @JsonProperty("vm_overcommit_memory") Integer vmOvercommitMemory,
            @JsonProperty("net_core_somaxconn") Integer netCoreSomaxconn,
            RedisJson redis,
            @JsonProperty("redis_process") ProcessJson redisProcess) {}

    /** {@code filesystem}: the type holding {@code enabled}; {@code sysfs} when the file is the kernel's. */
    @JsonPropertyOrder({"sysfs_dir", "enabled", "defrag", "filesystem"})
    record Thp(@JsonProperty("sysfs_dir") String sysfsDir, String enabled, String defrag, String filesystem) {}

    @JsonPropertyOrder({"persisted", "enabled_after_reboot", "kernel_default", "persisted_by", "settings"})
    record Boot(
            boolean persisted,
            @JsonProperty("enabled_after_reboot") String enabledAfterReboot,
            @JsonProperty("kernel_default") String kernelDefault,
            @JsonProperty("persisted_by") List<String> persistedBy,
            List<Setting> settings) {}

    @JsonPropertyOrder({"source", "file", "line", "target", "mode", "active"})
    record Setting(String source, String file, String line, String target, String mode, boolean active) {}

    @JsonPropertyOrder({
        "endpoint",
        "reachable",
        "error",
        "auth_failed",
        "refused_commands",
        "version",
        "flavour",
        "redis_compat_version",
        "mode",
        "role",
        "disable_thp",
        "tcp_backlog",
        "process_id"
    })
    record RedisJson(
            String endpoint,
            boolean reachable,
            String error,
            @JsonProperty("auth_failed") boolean authFailed,
            @JsonProperty("refused_commands") List<String> refusedCommands,
            String version,
            String flavour,
            @JsonProperty("redis_compat_version") String redisCompatVersion,
            String mode,
            String role,
            @JsonProperty("disable_thp") Boolean disableThp,
            @JsonProperty("tcp_backlog") Integer tcpBacklog,
            @JsonProperty("process_id") Long processId) {}

    @JsonPropertyOrder({"pid", "pid_source", "anon_huge_pages_kb", "error"})
    record ProcessJson(
            Long pid,
            @JsonProperty("pid_source") String pidSource,
            @JsonProperty("anon_huge_pages_kb") Long anonHugePagesKb,
            String error) {}

    private static HostJson host(HostAudit audit) {
        return new HostJson(
                audit.host(),
                audit.verdict().word(),
                audit.findings().stream()
                        .map(f -> new FindingJson(f.severity().word(), f.code(), f.text()))
                        .toList(),
                audit.facts().map(AuditJson::facts).orElse(null));
    }

    private static FactsJson facts(HostFacts facts) {
        return new FactsJson(
                facts.kernelRelease(),
                facts.root(),
                new Thp(
                        facts.thp().sysfsDir().orElse(null),
                        word(facts.thp().enabled()),
                        word(facts.thp().defrag()),
                        facts.thp().filesystem().orElse(null)),
                boot(facts),
                boxed(facts.overcommitMemory()),
                boxed(facts.somaxconn()),
                redis(facts.redis()),
                process(facts.redisProcess()));
    }

    private static Boot boot(HostFacts facts) {
        return new Boot(
                facts.boot().persisted(),
                word(facts.boot().enabledAfterReboot()),
                word(facts.boot().kernelDefault()),
                facts.boot().activeSources().stream().map(BootSource::word).toList(),
                facts.boot().settings().stream()
                        .map(s -> new Setting(
                                s.source().word(), s.file(), s.line(), s.target(), word(s.mode()), s.active()))
                        .toList());
    }

    private static RedisJson redis(RedisFacts redis) {
        return new RedisJson(
                redis.endpoint(),
                redis.reachable(),
                redis.error().orElse(null),
                redis.authFailed(),
                redis.refused(),
                redis.version().orElse(null),
                redis.server().map(v -> v.flavour().word()).orElse(null),
                redis.server().map(v -> v.redisCompat().toString()).orElse(null),
                redis.server().flatMap(RedisServer::mode).orElse(null),
                redis.role().orElse(null),
                redis.disableThp().orElse(null),
                boxed(redis.tcpBacklog()),
                boxed(redis.processId()));
    }

    private static ProcessJson process(RedisProcess process) {
        return new ProcessJson(
                boxed(process.pid()),
                process.pidSource().orElse(null),
                boxed(process.anonHugePagesKb()),
                process.error().orElse(null));
    }

    private static String word(Optional<ThpMode> mode) {
        return mode.map(ThpMode::word).orElse(null);
    }

    private static Integer boxed(OptionalInt value) {
        return value.isPresent() ? value.getAsInt() : null;
    }

    private static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }
}
