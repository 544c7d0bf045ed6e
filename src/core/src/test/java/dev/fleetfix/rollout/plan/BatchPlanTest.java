package dev.fleetfix.rollout.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.TestHosts;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.playbook.BatchSize;
import dev.fleetfix.playbook.BatchSize.Count;
import dev.fleetfix.playbook.BatchSize.Percent;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BatchPlanTest {
    private static List<Host> hosts(int n) {
        return IntStream.rangeClosed(1, n)
                .mapToObj(i -> TestHosts.local("r" + i, false))
                .toList();
    }

    private static List<Integer> sizes(int hosts, BatchSize... serial) {
        return BatchPlan.of(hosts(hosts), List.of(serial)).batches().stream()
                .map(List::size)
                .toList();
    }

    @Test
    void noSerialIsOneBatch() {
        assertThat(sizes(5)).containsExactly(5);
    }

    @Test
    void countRepeats() {
        assertThat(sizes(5, new Count(2))).containsExactly(2, 2, 1);
    }

    @Test
    void listRepeatsItsLastValueAsAnsibleDoes() {
        assertThat(sizes(10, new Count(1), new Percent(25), new Percent(100))).containsExactly(1, 2, 7);
        assertThat(sizes(5, new Count(1), new Percent(50))).containsExactly(1, 2, 2);
    }

    @Test
    void percentageRoundsDownButNeverBelowOne() {
        assertThat(sizes(3, new Percent(10))).containsExactly(1, 1, 1);
    }

    @Test
    void keepsInventoryOrder() {
        assertThat(BatchPlan.of(hosts(3), List.of(new Count(2))).batches().get(1))
                .extracting(Host::name)
                .containsExactly("r3");
    }
}
