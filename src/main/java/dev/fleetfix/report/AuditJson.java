package dev.fleetfix.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleetfix.checks.AuditSummary;
import dev.fleetfix.checks.BootSetting;
import dev.fleetfix.checks.BootSource;
import dev.fleetfix.checks.Finding;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.HostFacts;
import dev.fleetfix.checks.RedisFacts;
import dev.fleetfix.checks.RedisProcess;
import dev.fleetfix.checks.ThpMode;
import dev.fleetfix.redis.RedisServer;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The audit as JSON for machines, with the same facts as the table. Field names are snake_case and
 * stable: they are written out here one by one, not derived from the Java model, so renaming a record
 * component cannot change them. A fact that is unknown is {@code null}.
 *
 * <pre>
 * {"hosts": [{"host", "verdict", "findings": [{"severity", "code", "text"}],
 *             "facts": {"kernel", "root", "thp": {...}, "thp_boot": {...}, "vm_overcommit_memory",
 *                       "net_core_somaxconn", "redis": {...}, "redis_process": {...}} or null}],
 *  "summary": {"hosts", "ok", "at_risk", "unreachable"}}
 * </pre>
 */
public final class AuditJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AuditJson() {}

    public static String render(List<HostAudit> audits) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode hosts = root.putArray("hosts");
        audits.forEach(audit -> hosts.add(host(audit)));
        AuditSummary summary = AuditSummary.of(audits);
        ObjectNode counts = root.putObject("summary");
        counts.put("hosts", summary.hosts());
        counts.put("ok", summary.ok());
        counts.put("at_risk", summary.atRisk());
        counts.put("unreachable", summary.unreachable());
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode host(HostAudit audit) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("host", audit.host());
        node.put("verdict", audit.verdict().word());
        ArrayNode findings = node.putArray("findings");
        for (Finding finding : audit.findings()) {
            ObjectNode f = findings.addObject();
            f.put("severity", finding.severity().word());
            f.put("code", finding.code());
            f.put("text", finding.text());
        }
        if (audit.facts().isPresent()) {
            node.set("facts", facts(audit.facts().get()));
        } else {
            node.putNull("facts");
        }
        return node;
    }

    private static ObjectNode facts(HostFacts facts) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("kernel", facts.kernelRelease());
        node.put("root", facts.root());
        ObjectNode thp = node.putObject("thp");
        thp.put("sysfs_dir", facts.thp().sysfsDir().orElse(null));
        thp.put("enabled", word(facts.thp().enabled()));
        thp.put("defrag", word(facts.thp().defrag()));
        node.set("thp_boot", boot(facts));
        put(node, "vm_overcommit_memory", facts.overcommitMemory());
        put(node, "net_core_somaxconn", facts.somaxconn());
        node.set("redis", redis(facts.redis()));
        node.set("redis_process", process(facts.redisProcess()));
        return node;
    }

    private static ObjectNode boot(HostFacts facts) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("persisted", facts.boot().persisted());
        node.put("enabled_after_reboot", word(facts.boot().enabledAfterReboot()));
        node.put("kernel_default", word(facts.boot().kernelDefault()));
        ArrayNode sources = node.putArray("persisted_by");
        facts.boot().activeSources().stream().map(BootSource::word).forEach(sources::add);
        ArrayNode settings = node.putArray("settings");
        for (BootSetting setting : facts.boot().settings()) {
            ObjectNode s = settings.addObject();
            s.put("source", setting.source().word());
            s.put("file", setting.file());
            s.put("line", setting.line());
            s.put("target", setting.target());
            s.put("mode", word(setting.mode()));
            s.put("active", setting.active());
        }
        return node;
    }

    private static ObjectNode redis(RedisFacts redis) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("endpoint", redis.endpoint());
        node.put("reachable", redis.reachable());
        node.put("error", redis.error().orElse(null));
        node.put("auth_failed", redis.authFailed());
        redis.refused().forEach(node.putArray("refused_commands")::add);
        node.put("version", redis.version().orElse(null));
        node.put("flavour", redis.server().map(v -> v.flavour().word()).orElse(null));
        node.put(
                "redis_compat_version",
                redis.server().map(v -> v.redisCompat().toString()).orElse(null));
        node.put("mode", redis.server().flatMap(RedisServer::mode).orElse(null));
        node.put("role", redis.role().orElse(null));
        if (redis.disableThp().isPresent()) {
            node.put("disable_thp", redis.disableThp().get());
        } else {
            node.putNull("disable_thp");
        }
        put(node, "tcp_backlog", redis.tcpBacklog());
        put(node, "process_id", redis.processId());
        return node;
    }

    private static ObjectNode process(RedisProcess process) {
        ObjectNode node = MAPPER.createObjectNode();
        put(node, "pid", process.pid());
        node.put("pid_source", process.pidSource().orElse(null));
        put(node, "anon_huge_pages_kb", process.anonHugePagesKb());
        node.put("error", process.error().orElse(null));
        return node;
    }

    private static String word(Optional<ThpMode> mode) {
        return mode.map(ThpMode::word).orElse(null);
    }

    private static void put(ObjectNode node, String field, OptionalInt value) {
        if (value.isPresent()) {
            node.put(field, value.getAsInt());
        } else {
            node.putNull(field);
        }
    }

    private static void put(ObjectNode node, String field, OptionalLong value) {
        if (value.isPresent()) {
            node.put(field, value.getAsLong());
        } else {
            node.putNull(field);
        }
    }
}
