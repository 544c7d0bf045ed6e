package dev.fleetfix.bench.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LoadSpecTest {

    @Test
    void aBuilderStartsFromTheDefaultsAndToBuilderRoundTrips() {
        assertThat(LoadSpec.builder().build()).isEqualTo(LoadSpec.defaults());
        LoadSpec paced = LoadSpec.builder().connections(3).rate(500).seed(7).build();
        assertThat(paced.toBuilder().build()).isEqualTo(paced);
        assertThat(paced.connections()).isEqualTo(3);
        assertThat(paced.seed()).isEqualTo(7);
    }

    @Test
    void settingOneBoundClearsTheOther() {
        LoadSpec byCount = LoadSpec.defaults().withRequests(100);
        assertThat(byCount.duration()).isEmpty();
        assertThat(byCount.requests()).isEqualTo(OptionalLong.of(100));

        LoadSpec byTime = byCount.withDuration(Duration.ofSeconds(5));
        assertThat(byTime.duration()).contains(Duration.ofSeconds(5));
        assertThat(byTime.requests()).isEmpty();
    }

    @Test
    void theBuilderValidatesWhenItBuilds() {
        assertThatThrownBy(() -> LoadSpec.builder().pipeline(0).build())
                .hasMessage("pipeline must be 1..100000, was 0");
    }
}
