package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which commands LabCli sends from this JVM, and its replies printed as redis-cli prints them to a pipe. */
class LabCliTest {

    @Test
    void aCommandAndItsWordsIsPlain() {
        assertThat(LabCli.plain("INFO replication")).contains(List.of("INFO", "replication"));
        assertThat(LabCli.plain("  CONFIG  GET min-slaves-to-write "))
                .contains(List.of("CONFIG", "GET", "min-slaves-to-write"));
        assertThat(LabCli.plain("SLAVEOF 127.0.0.12 6379")).contains(List.of("SLAVEOF", "127.0.0.12", "6379"));
        assertThat(LabCli.plain("TTL fleetfix:canary:lab-3")).contains(List.of("TTL", "fleetfix:canary:lab-3"));
    }

    @Test
    void optionsQuotingGlobsAndShellGoToTheHostsRedisCli() {
        for (String args : List.of(
                "-c get lab:cluster:key",
                "--scan --pattern 'fleetfix:*'",
                "--scan | grep -v '^user:' || true",
                "EVAL \"return 1\" 0",
                "CONFIG GET maxmemory*",
                "SET a $HOME",
                "GET a; rm -rf x",
                "")) {
            assertThat(LabCli.plain(args)).as(args).isEmpty();
        }
    }

    @Test
    void repliesPrintAsRedisCliPrintsThemToAPipe() {
        // as redis-cli 7.0.15 printed them on a lab host (| od -c), before its closing newline
        assertThat(LabCli.raw("OK")).isEqualTo("OK");
        assertThat(LabCli.raw(0L)).isEqualTo("0");
        assertThat(LabCli.raw(null)).isEmpty();
        assertThat(LabCli.raw(List.of("master", 0L, List.of()))).isEqualTo("master\n0\n");
        assertThat(LabCli.raw(Arrays.asList("maxmemory-policy", "noeviction", "maxmemory", "0")))
                .isEqualTo("maxmemory-policy\nnoeviction\nmaxmemory\n0");
        assertThat(LabCli.raw(List.of("slave", "127.0.0.11", 6379L, "connected", 1234L)))
                .isEqualTo("slave\n127.0.0.11\n6379\nconnected\n1234");
        assertThat(LabCli.raw(Arrays.asList("a", null, "b"))).isEqualTo("a\n\nb");
    }

    @Test
    void redisCliAddsANewlineExceptToTheTextsItPrintsAsTheyAre() {
        // INFO's text ends with its own CRLF; redis-cli 7.0 adds nothing to it, nor to CLIENT LIST's or CLUSTER INFO's
        assertThat(LabCli.printed(List.of("INFO", "keyspace"), "# Keyspace\r\n"))
                .isEqualTo("# Keyspace\r\n");
        assertThat(LabCli.printed(List.of("cluster", "info"), "cluster_state:ok\r\n"))
                .isEqualTo("cluster_state:ok\r\n");
        assertThat(LabCli.printed(List.of("CLIENT", "LIST"), "id=3\n")).isEqualTo("id=3\n");
        assertThat(LabCli.printed(List.of("GET", "k"), "a\n")).isEqualTo("a\n\n");
        assertThat(LabCli.printed(List.of("CLUSTER", "MYID"), "abc")).isEqualTo("abc\n");
        assertThat(LabCli.printed(List.of("PING"), "PONG")).isEqualTo("PONG\n");
    }
}
