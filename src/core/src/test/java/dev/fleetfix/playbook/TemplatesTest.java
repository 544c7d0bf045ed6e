package dev.fleetfix.playbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplatesTest {
    private final Location at = new Location(Path.of("p.yaml"), 7, 7);
    private final Map<String, Object> vars = Map.of("unit", "redis-server", "port", 6380, "evil", "x'; rm -rf /");

    @Test
    void substitutesAndKeepsTypesOfWholeValues() {
        assertThat(Templates.render("{{ unit }}", vars, at, "a", false)).isEqualTo("redis-server");
        assertThat(Templates.render("{{port}}", vars, at, "a", false)).isEqualTo(6380);
        assertThat(Templates.render("unit {{ unit }} on {{ port }}", vars, at, "a", false))
                .isEqualTo("unit redis-server on 6380");
        assertThat(Templates.render(List.of("{{ unit }}", Map.of("k", "{{ port }}")), vars, at, "a", false))
                .isEqualTo(List.of("redis-server", Map.of("k", 6380)));
    }

    @Test
    void quotesValuesThatReachAShell() {
        assertThat(Templates.render("echo {{ evil }}", vars, at, "cmd", true)).isEqualTo("echo 'x'\"'\"'; rm -rf /'");
    }

    @Test
    void undefinedVariableNamesItAndTheLocation() {
        assertThatThrownBy(() -> Templates.render("{{ nope }}", vars, at, "restart_redis.unit", false))
                .hasMessage("p.yaml:7:7: restart_redis.unit: undefined variable 'nope'");
        assertThatThrownBy(() -> Templates.render("{{ unit | upper }}", vars, at, "a", false))
                .hasMessageContaining("only plain variable names");
        assertThatThrownBy(() -> Templates.render("{{ unit", vars, at, "a", false))
                .hasMessageContaining("unclosed");
    }
}
