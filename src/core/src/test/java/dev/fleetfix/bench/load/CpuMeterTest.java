package dev.fleetfix.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fleetfix.bench.ClientCpu;
import dev.fleetfix.bench.load.CpuMeter.Reading;
import dev.fleetfix.bench.load.CpuMeter.RunTimes;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

    @Test
    void theWaitShareIsWaitingOverReadyTimeSummedOverTheThreads() {
        Map<Integer, RunTimes> start = Map.of(1, new RunTimes(1_000, 100), 2, new RunTimes(500, 500));
        // thread 1: 600 ns more on a core, 200 more waiting; thread 2: 200 and 600; thread 3 started: 400 and 200
        Map<Integer, RunTimes> end =
                Map.of(1, new RunTimes(1_600, 300), 2, new RunTimes(700, 1_100), 3, new RunTimes(400, 200));

        assertThat(CpuMeter.waitShare(start, end)).isCloseTo(1_000 / 2_200.0, within(1e-12));
    }

    @Test
    void aThreadThatEndedIsLeftOutAndNoThreadsGiveNoFigure() {
        Map<Integer, RunTimes> start = Map.of(1, new RunTimes(0, 0), 9, new RunTimes(5_000, 5_000));
        Map<Integer, RunTimes> end = Map.of(1, new RunTimes(300, 100));

        assertThat(CpuMeter.waitShare(start, end)).isCloseTo(0.25, within(1e-12));
        assertThat(CpuMeter.waitShare(Map.of(), Map.of())).isNaN();
        assertThat(CpuMeter.waitShare(end, end))
                .as("no time between the readings")
                .isNaN();
    }

    @Test
    void aRoundCarriesTheMachineAndProcessSharesAndTheWait() {
        int cores = Runtime.getRuntime().availableProcessors();
        Reading start = new Reading(0, 0, 100, 1_000, Map.of(1, new RunTimes(0, 0)));
        Reading end = new Reading(1_000_000, 500_000L * cores, 600, 2_000, Map.of(1, new RunTimes(900, 100)));

        ClientCpu cpu = CpuMeter.between(start, end);

        assertThat(cpu.processShare()).isCloseTo(0.5, within(1e-9));
        assertThat(cpu.machineShare()).isCloseTo(0.5, within(1e-9));
        assertThat(cpu.waitShare()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void thisJvmHasSchedulerFiguresOnLinux() {
        Reading reading = CpuMeter.system().read().orElseThrow();
        assertThat(reading.threads())
                .as("/proc/self/task/*/schedstat on this Linux machine")
                .isNotEmpty();
    }
}
