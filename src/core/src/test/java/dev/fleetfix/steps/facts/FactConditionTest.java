package dev.fleetfix.steps.facts;

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

    private final Map<String, String> kernel = Map.of(
            "net.core.somaxconn", "4096", "redis.tcp_backlog", "8192", "vm.overcommit_memory", "1", "os.id", "debian");

    @Test
    void ordersCompareWholeNumbersWithANumberOrAnotherFact() {
        assertThat(FactCondition.parse("net.core.somaxconn >= 4096")
                        .evaluate(kernel)
                        .holds())
                .isTrue();
        assertThat(FactCondition.parse("net.core.somaxconn > 4096")
                        .evaluate(kernel)
                        .holds())
                .isFalse();
        assertThat(FactCondition.parse("vm.overcommit_memory<2")
                        .evaluate(kernel)
                        .holds())
                .isTrue();
        assertThat(FactCondition.parse("redis.tcp_backlog <= net.core.somaxconn and os.id == debian")
                        .evaluate(kernel)
                        .holds())
                .isFalse();
        assertThat(FactCondition.parse("redis.tcp_backlog > net.core.somaxconn")
                        .evaluate(kernel)
                        .holds())
                .isTrue();
    }

    @Test
    void aFalseOrderNamesBothValues() {
        assertThat(FactCondition.parse("net.core.somaxconn >= redis.tcp_backlog")
                        .evaluate(kernel)
                        .detail())
                .isEqualTo("net.core.somaxconn >= redis.tcp_backlog is false: net.core.somaxconn is 4096,"
                        + " redis.tcp_backlog is 8192");
        assertThat(FactCondition.parse("net.core.somaxconn >= 65535")
                        .evaluate(kernel)
                        .detail())
                .isEqualTo("net.core.somaxconn >= 65535 is false: net.core.somaxconn is 4096");
    }

    @Test
    void anOrderOnAnUnknownOrNonNumericFactFailsSayingWhich() {
        assertThat(FactCondition.parse("net.core.somaxconn >= redis.backlog").evaluate(kernel))
                .satisfies(o -> assertThat(o.holds()).isFalse())
                .satisfies(o -> assertThat(o.detail()).contains("fact 'redis.backlog' is unknown"));
        assertThat(FactCondition.parse("os.id >= 1").evaluate(kernel).detail())
                .isEqualTo("os.id >= 1 cannot be judged: os.id is debian, not a whole number");
        // with == a bare word stays a word, never another fact's value
        assertThat(FactCondition.parse("net.core.somaxconn == redis.tcp_backlog")
                        .evaluate(Map.of("net.core.somaxconn", "1024", "redis.tcp_backlog", "1024"))
                        .holds())
                .isFalse();
    }

    @Test
    void anOrderWithAQuotedValueIsRefusedWhenRead() {
        assertThatThrownBy(() -> FactCondition.parse("net.core.somaxconn >= \"1024\""))
                .hasMessageContaining(">= compares whole numbers: give a number or a fact");
        assertThatThrownBy(() -> FactCondition.parse("net.core.somaxconn >= 1,024"))
                .hasMessageContaining("'1,024' is neither a number nor a fact");
    }
}
