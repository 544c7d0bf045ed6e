package dev.fleetfix.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FactConditionTest {
    private final Map<String, String> facts = Map.of("thp.enabled", "never", "init", "systemd");

    @Test
    void equalityInequalityAndAnd() {
        assertThat(FactCondition.parse("thp.enabled == never").evaluate(facts).holds())
                .isTrue();
        assertThat(FactCondition.parse("init != systemd").evaluate(facts).holds())
                .isFalse();
        assertThat(FactCondition.parse("thp.enabled == \"never\" and init == systemd")
                        .evaluate(facts)
                        .holds())
                .isTrue();
    }

    @Test
    void unknownFactFailsNamingIt() {
        assertThat(FactCondition.parse("redis.role == master").evaluate(facts).detail())
                .contains("fact 'redis.role' is unknown");
    }

    @Test
    void rejectsAnythingElse() {
        assertThatThrownBy(() -> FactCondition.parse("thp.enabled = never"))
                .hasMessageContaining("expected FACT == VALUE");
    }
}
