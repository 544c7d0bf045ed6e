package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CountsTest {
    @Test
    void oneIsSingularAndEveryOtherCountPlural() {
        assertThat(Counts.of(1, "host")).isEqualTo("1 host");
        assertThat(Counts.of(0, "host")).isEqualTo("0 hosts");
        assertThat(Counts.of(2, "host")).isEqualTo("2 hosts");
        assertThat(Counts.of(1, "batch")).isEqualTo("1 batch");
        assertThat(Counts.of(3, "batch")).isEqualTo("3 batches");
        assertThat(Counts.of(2, "primary")).isEqualTo("2 primaries");
        assertThat(Counts.of(2, "key")).isEqualTo("2 keys");
        assertThat(Counts.of(2, "process")).isEqualTo("2 processes");
        assertThat(Counts.of(2, "child", "children")).isEqualTo("2 children");
    }
}
