package dev.fleetfix.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostTest {

    @Test
    void toBuilderChangesOnlyWhatItIsTold() {
        Host local = Host.implicitLocalhost();
        assertThat(local.toBuilder().build()).isEqualTo(local);

        Host viaBastion = local.toBuilder().jump(Optional.of("ops@bastion:22")).build();

        assertThat(viaBastion.jump()).contains("ops@bastion:22");
        assertThat(viaBastion.toBuilder().jump(local.jump()).build()).isEqualTo(local);
    }

    @Test
    void theBuilderValidatesLikeTheConstructor() {
        assertThatThrownBy(() -> Host.implicitLocalhost().toBuilder().port(0).build())
                .hasMessage("host localhost: port must be 1..65535, was 0");
    }
}
