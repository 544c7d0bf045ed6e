package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.fake.Harness;
import dev.fleetfix.rollout.RunOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisConfigStepTest {
    @TempDir
    Path dir;

    private void plan(String step) {
        new Harness(dir, "r1").plan("- hosts: all\n  steps:\n" + step, RunOptions.defaults());
    }

    @Test
    void parametersAreCheckedWhenThePlaybookIsRead() {
        plan("    - redis_config: {tcp-backlog: 1024, latency-monitor-threshold: 100, save: \"\"}\n");
        assertThatThrownBy(() -> plan("    - redis_config: {\"tcp backlog\": 1}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("play.yaml:3")
                .hasMessageContaining("not a Redis parameter name");
        assertThatThrownBy(() -> plan("    - redis_config: {save: \"900 1\\nrename-command FLUSHALL x\"}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("line breaks");
        assertThatThrownBy(() -> plan("    - redis_config: {rename-command: x}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("rename-command is not a parameter");
    }

    @Test
    void aDirectiveIsReplacedInPlaceOnceAndASecondEditChangesNothing() {
        String conf = "bind 127.0.0.1\ntcp-backlog 511\nsave 900 1\nsave 300 10\n# tcp-backlog 2\n";
        String once = RedisConfigStep.setDirective(conf, "tcp-backlog", "1024");
        assertThat(once).isEqualTo("bind 127.0.0.1\ntcp-backlog 1024\nsave 900 1\nsave 300 10\n# tcp-backlog 2\n");
        assertThat(RedisConfigStep.setDirective(once, "tcp-backlog", "1024")).isEqualTo(once);

        String saves = RedisConfigStep.setDirective(once, "save", "3600 1");
        assertThat(saves).isEqualTo("bind 127.0.0.1\ntcp-backlog 1024\nsave 3600 1\n# tcp-backlog 2\n");
        assertThat(RedisConfigStep.setDirective(saves, "save", "")).contains("save \"\"\n");
        assertThat(RedisConfigStep.setDirective("port 6379", "latency-monitor-threshold", "100"))
                .isEqualTo("port 6379\nlatency-monitor-threshold 100\n");
    }
}
