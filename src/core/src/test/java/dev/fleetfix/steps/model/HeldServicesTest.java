package dev.fleetfix.steps.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.checks.RunningService;
import dev.fleetfix.checks.RunningService.Manager;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class HeldServicesTest {
    private final HeldServices held = new HeldServices();

    @Test
    void aReadIsTakenForTheSamePortsOnly() {
        held.hold(List.of(6379), List.of(unit(6379)));

        assertThat(held.of(List.of(6379))).contains(List.of(unit(6379)));
        assertThat(held.of(List.of(6379, 6380)))
                .as("the machine's other instance was not read")
                .isEmpty();
        assertThat(held.of(List.of(6380))).isEmpty();
    }

    @Test
    void theMachinesReadServesEachOfItsPorts() {
        held.hold(List.of(6379, 6380), List.of(unit(6379), unit(6380)));

        assertThat(held.of(List.of(6380))).contains(List.of(unit(6380)));
        assertThat(held.of(List.of(6380, 6379))).contains(List.of(unit(6380), unit(6379)));
    }

    @Test
    void aRestartDropsTheReadAndKernelSettingsKeepIt() {
        held.hold(List.of(6379), List.of(unit(6379)));

        held.after("thp", StepStatus.CHANGED);
        held.after("persist_thp", StepStatus.CHANGED);
        held.after("sysctl", StepStatus.CHANGED);
        assertThat(held.of(List.of(6379))).isPresent();

        held.after("restart_redis", StepStatus.OK);
        assertThat(held.of(List.of(6379))).as("a restart that did nothing").isPresent();

        held.after("restart_redis", StepStatus.CHANGED);
        assertThat(held.of(List.of(6379))).as("the process is another").isEmpty();
    }

    @Test
    void aChangeFleetfixCannotBoundDropsTheRead() {
        held.hold(List.of(6379), List.of(unit(6379)));

        held.after("command", StepStatus.CHANGED);

        assertThat(held.of(List.of(6379))).isEmpty();
    }

    @Test
    void oneServicePerPort() {
        assertThatThrownBy(() -> held.hold(List.of(6379, 6380), List.of(unit(6379))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 ports, 1 services");
    }

    @Test
    void theForecastsCopyOfTheStateHoldsTheRunsRead() {
        HostState real = new HostState();
        HostState copy = new HostState(new HostState.Machine(), real.services());

        copy.services().hold(List.of(6379), List.of(unit(6379)));

        assertThat(real.services().of(List.of(6379))).isPresent();
    }

    private static RunningService unit(int port) {
        return new RunningService(
                port,
                Manager.SYSTEMD,
                Optional.of("redis-server.service"),
                OptionalLong.of(812),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                "its cgroup",
                Optional.of("redis-server.service"),
                Optional.empty());
    }
}
