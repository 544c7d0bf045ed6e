package dev.fleetfix.transport.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class JumpHostTest {

    @Test
    void parsesUserHostAndPort() {
        assertThat(JumpHost.parse("ops@bastion:2222")).isEqualTo(new JumpHost(Optional.of("ops"), "bastion", 2222));
        assertThat(JumpHost.parse("bastion")).isEqualTo(new JumpHost(Optional.empty(), "bastion", 22));
        assertThat(JumpHost.parse("bastion:22")).isEqualTo(new JumpHost(Optional.empty(), "bastion", 22));
        assertThat(JumpHost.parse("ops@[::1]:2200")).isEqualTo(new JumpHost(Optional.of("ops"), "::1", 2200));
        assertThat(JumpHost.parse("ops@bastion:2222")).hasToString("ops@bastion:2222");
    }

    @Test
    void rejectsBadPortsNamingTheSpec() {
        assertThatThrownBy(() -> JumpHost.parse("ops@bastion:ssh"))
                .hasMessageContaining("'ops@bastion:ssh'")
                .hasMessageContaining("'ssh'");
        assertThatThrownBy(() -> JumpHost.parse("bastion:70000")).hasMessageContaining("70000");
        assertThatThrownBy(() -> JumpHost.parse("ops@")).hasMessageContaining("'ops@'");
    }
}
