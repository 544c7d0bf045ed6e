package dev.fleetfix.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.checks.AuditRules;
import dev.fleetfix.checks.FactOutput;
import dev.fleetfix.checks.FactScript;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.RedisFacts;
import dev.fleetfix.report.files.AuditJson;
import dev.fleetfix.report.files.AuditOpenMetrics;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AuditReportsTest {
    private static final RedisFacts REDIS_7 = new RedisFacts(
            "127.0.0.11:6379",
            Optional.empty(),
            Optional.of("7.0.15"),
            Optional.of("master"),
            Optional.of(true),
            OptionalInt.of(511),
            OptionalLong.of(4242));
    private static final RedisFacts REDIS_5 = new RedisFacts(
            "127.0.0.12:6379",
            Optional.empty(),
            Optional.of("5.0.14"),
            Optional.of("replica"),
            Optional.empty(),
            OptionalInt.of(511),
            OptionalLong.of(977));

    private static final List<HostAudit> FLEET = List.of(
            AuditRules.judge(FactScript.parse("lab-1", FactOutput.debian12().text(), REDIS_7)),
            AuditRules.judge(FactScript.parse(
                    "lab-2",
                    FactOutput.debian12()
                            .set("thp.enabled", "[always] madvise never")
                            .set("systemd")
                            .set("overcommit", "0")
                            .set("smaps", "kb 421888")
                            .text(),
                    REDIS_5)),
            HostAudit.unreachable("lab-3", "host lab-3 (127.0.0.13:22): connection refused"));

    @Test
    void theTableHasOneRowPerHostReasonsUnderneathAndASummary() {
        String table = AuditTable.render(FLEET);

        assertThat(table.lines().toList())
                .containsSubsequence(
                        "HOST   KERNEL          THP ENABLED/DEFRAG  PERSISTED BY  REDIS           DISABLE-THP  OVERCOMMIT"
                                + "  SOMAXCONN/BACKLOG  VERDICT",
                        "lab-1  6.1.0-18-amd64  never/madvise       systemd       7.0.15 master   yes          1"
                                + "           4096/511           ok",
                        "lab-2  6.1.0-18-amd64  always/madvise      -             5.0.14 replica  n/a          0"
                                + "           4096/511           at-risk",
                        "    risk: THP is [always] and Redis 5.0 cannot opt out: memory bloat and fragmentation; fork"
                                + " latency is little affected on kernel 6.1.0-18-amd64 (5.8+ copies 4 KiB, not 2 MiB,"
                                + " on write after fork); set never",
                        "    risk: Redis holds 412 MB of huge pages (AnonHugePages)",
                        "    risk: vm.overcommit_memory is 0: BGSAVE may fail under memory pressure; set 1",
                        "lab-3  -               -                   -             -               -            -"
                                + "           -                  unreachable",
                        "    risk: host lab-3 (127.0.0.13:22): connection refused",
                        "",
                        "3 hosts: 1 ok, 1 at-risk, 1 unreachable");
    }

    @Test
    void theJsonHasTheSameFactsUnderStableNames() throws IOException {
        JsonNode json = new ObjectMapper().readTree(AuditJson.render(FLEET));

        assertThat(json.at("/summary/hosts").asInt()).isEqualTo(3);
        assertThat(json.at("/summary/at_risk").asInt()).isEqualTo(1);
        JsonNode lab1 = json.at("/hosts/0");
        assertThat(lab1.at("/host").asText()).isEqualTo("lab-1");
        assertThat(lab1.at("/verdict").asText()).isEqualTo("ok");
        assertThat(lab1.at("/facts/kernel").asText()).isEqualTo("6.1.0-18-amd64");
        assertThat(lab1.at("/facts/thp/enabled").asText()).isEqualTo("never");
        assertThat(lab1.at("/facts/thp/defrag").asText()).isEqualTo("madvise");
        assertThat(lab1.at("/facts/thp/sysfs_dir").asText()).isEqualTo("/sys/kernel/mm/transparent_hugepage");
        assertThat(lab1.at("/facts/thp/filesystem").asText()).isEqualTo("sysfs");
        assertThat(lab1.at("/facts/thp_boot/persisted").asBoolean()).isTrue();
        assertThat(lab1.at("/facts/thp_boot/persisted_by/0").asText()).isEqualTo("systemd");
        assertThat(lab1.at("/facts/thp_boot/settings/0/file").asText())
                .isEqualTo("/etc/systemd/system/disable-thp.service");
        assertThat(lab1.at("/facts/vm_overcommit_memory").asInt()).isEqualTo(1);
        assertThat(lab1.at("/facts/net_core_somaxconn").asInt()).isEqualTo(4096);
        assertThat(lab1.at("/facts/redis/version").asText()).isEqualTo("7.0.15");
        assertThat(lab1.at("/facts/redis/disable_thp").asBoolean()).isTrue();
        assertThat(lab1.at("/facts/redis/tcp_backlog").asInt()).isEqualTo(511);
        assertThat(lab1.at("/facts/redis_process/anon_huge_pages_kb").asLong()).isZero();

        JsonNode lab2 = json.at("/hosts/1");
        assertThat(lab2.at("/verdict").asText()).isEqualTo("at-risk");
        assertThat(lab2.at("/findings/0/severity").asText()).isEqualTo("risk");
        assertThat(lab2.at("/findings/0/code").asText()).isEqualTo("thp-exposed");
        assertThat(lab2.at("/facts/redis/disable_thp").isNull()).isTrue();
        assertThat(lab2.at("/facts/redis/role").asText()).isEqualTo("replica");
        assertThat(lab2.at("/facts/redis_process/anon_huge_pages_kb").asLong()).isEqualTo(421888);

        JsonNode lab3 = json.at("/hosts/2");
        assertThat(lab3.at("/verdict").asText()).isEqualTo("unreachable");
        assertThat(lab3.at("/facts").isNull()).isTrue();
        assertThat(lab3.at("/findings/0/text").asText()).isEqualTo("host lab-3 (127.0.0.13:22): connection refused");
    }

    private static final AuditOpenMetrics.Run RUN =
            new AuditOpenMetrics.Run(Instant.ofEpochSecond(1_764_556_800L), Duration.ofMillis(2500), "1.2.3");

    @Test
    void compactOpenMetricsWritesEachStateAsOneSampleOfItsCurrentValue() {
        String expanded = AuditOpenMetrics.render(FLEET, RUN, AuditOpenMetrics.States.EXPANDED);
        String compact = AuditOpenMetrics.render(FLEET, RUN, AuditOpenMetrics.States.COMPACT);

        assertThat(compact.lines().toList())
                .contains(
                        "fleetfix_thp_enabled{host=\"lab-1\",mode=\"never\"} 1.0",
                        "fleetfix_thp_enabled{host=\"lab-2\",mode=\"always\"} 1.0",
                        "fleetfix_host_verdict{host=\"lab-3\",verdict=\"unreachable\"} 1.0");
        // one sample per state and host: the current value, never a 0 for the others
        assertThat(compact.lines().filter(l -> l.matches("fleetfix_(host_verdict|thp_\\w+)\\{.*")))
                .allMatch(l -> l.endsWith("} 1.0"))
                .filteredOn(l -> l.startsWith("fleetfix_thp_enabled{"))
                .hasSize(2);
        assertThat(expanded).contains("fleetfix_thp_enabled{host=\"lab-1\",mode=\"always\"} 0.0");
    }

    @Test
    void openMetricsHasAGaugePerHostAndFactAndNoSampleForWhatWasNotRead() {
        String text = AuditOpenMetrics.render(FLEET, RUN, AuditOpenMetrics.States.EXPANDED);

        assertThat(text.lines().toList())
                .contains(
                        "# TYPE fleetfix_thp_enabled gauge",
                        "fleetfix_thp_enabled{host=\"lab-1\",mode=\"never\"} 1.0",
                        "fleetfix_thp_enabled{host=\"lab-1\",mode=\"always\"} 0.0",
                        "fleetfix_thp_enabled{host=\"lab-2\",mode=\"always\"} 1.0",
                        "fleetfix_host_verdict{host=\"lab-2\",verdict=\"at-risk\"} 1.0",
                        "fleetfix_host_verdict{host=\"lab-3\",verdict=\"unreachable\"} 1.0",
                        "fleetfix_host_verdict{host=\"lab-3\",verdict=\"ok\"} 0.0",
                        "fleetfix_host_finding{code=\"thp-exposed\",host=\"lab-2\",severity=\"risk\"} 1.0",
                        "fleetfix_redis_info{endpoint=\"127.0.0.12:6379\",flavour=\"redis\",host=\"lab-2\","
                                + "role=\"replica\","
                                + "version=\"5.0.14\"} 1.0",
                        "fleetfix_redis_anon_huge_pages_bytes{host=\"lab-2\"} 4.32013312E8",
                        "fleetfix_vm_overcommit_memory{host=\"lab-2\"} 0.0",
                        "fleetfix_audit_hosts{verdict=\"unreachable\"} 1.0",
                        "fleetfix_audit_timestamp_seconds 1.7645568E9",
                        "fleetfix_audit_duration_seconds 2.5",
                        "fleetfix_build_info{version=\"1.2.3\"} 1.0",
                        "fleetfix_thp_defrag{host=\"lab-1\",mode=\"defer+madvise\"} 0.0")
                .endsWith("# EOF");
        // the enabled file never takes defer: no series a host can never have
        assertThat(text).doesNotContain("fleetfix_thp_enabled{host=\"lab-1\",mode=\"defer");
        assertThat(text).doesNotContain("fleetfix_thp_enabled_after_reboot{host=\"lab-1\",mode=\"defer");
        // lab-2's Redis does not say whether it opts out: no sample rather than a false 0; lab-3 has no facts at all.
        assertThat(text).doesNotContain("fleetfix_redis_disable_thp{endpoint=\"127.0.0.12:6379\"");
        assertThat(text).containsOnlyOnce("host=\"lab-3\",verdict=\"unreachable\"");
        assertThat(text).doesNotContain("fleetfix_thp_enabled{host=\"lab-3\"");
    }

    @Test
    void aRedisThatIsDownShowsAsDownInTheTableAndUnreachableInJson() throws IOException {
        List<HostAudit> audits = List.of(AuditRules.judge(FactScript.parse(
                "lab-1",
                FactOutput.debian12()
                        .set("redis.pid", "pidof ")
                        .without("smaps")
                        .text(),
                RedisFacts.unreachable("127.0.0.11:6379", "connection refused"))));

        assertThat(AuditTable.render(audits))
                .contains("  down  ")
                .contains("    risk: Redis is not answering on 127.0.0.11:6379: connection refused")
                .endsWith("1 host: 0 ok, 1 at-risk, 0 unreachable\n");
        JsonNode redis = new ObjectMapper().readTree(AuditJson.render(audits)).at("/hosts/0/facts/redis");
        assertThat(redis.at("/reachable").asBoolean()).isFalse();
        assertThat(redis.at("/error").asText()).isEqualTo("connection refused");
        assertThat(redis.at("/version").isNull()).isTrue();
    }

    @Test
    void onATerminalALongFindingGoesOnOnLinesIndentedUnderItsText() {
        String reason =
                "127.0.0.12:22: connect timed out after 10s; " + "check the address and the firewall; ".repeat(4);
        List<HostAudit> audits = List.of(HostAudit.unreachable("lab-2", reason));

        List<String> lines =
                AuditTable.render(audits, new Screen(true, 60)).lines().toList();
        List<String> finding = lines.stream()
                .dropWhile(l -> !l.startsWith("    risk: ") && !l.startsWith("    note: "))
                .takeWhile(l -> !l.isEmpty())
                .toList();
        assertThat(finding).hasSizeGreaterThan(1).allSatisfy(l -> assertThat(l.length())
                .isLessThanOrEqualTo(60));
        assertThat(finding.subList(1, finding.size()))
                .allSatisfy(l -> assertThat(l).startsWith("          "));
        assertThat(AuditTable.render(audits).lines().filter(l -> l.contains("connect timed out")))
                .singleElement()
                .satisfies(l -> assertThat(l.length()).isGreaterThan(60));
    }
}
