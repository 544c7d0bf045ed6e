package dev.fleetfix.bench.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.bench.Phase;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BenchPlanBuilderTest {

    @Test
    void valueSizeDefaultsTo64BytesForBothEngines() {
        // the playbook step used redis-benchmark's own 3 bytes and the command line 64: one default now
        assertThat(new BenchPlanBuilder().build().load().valueSize()).isEqualTo(64);
        BenchPlan rb = new BenchPlanBuilder().engine("redis-benchmark").build();
        assertThat(rb.redisBenchmark().dataSize()).isEqualTo(BenchPlanBuilder.DEFAULT_VALUE_SIZE);
        assertThat(rb.redisBenchmark().dataSize()).isEqualTo(64);
    }

    @Test
    void aListOfSizesIsASweepOfEveryPointWithFiveRoundsUnlessGiven() {
        BenchPlan plan = new BenchPlanBuilder()
                .valueSizes(List.of("64,512,1024,2048,4096,8192"))
                .build();
        assertThat(plan.sweep()).extracting(SweepPoint::valueSize).containsExactly(64, 512, 1024, 2048, 4096, 8192);
        assertThat(plan.sweep()).allSatisfy(p -> assertThat(p.tcpNoDelay()).isEmpty());
        assertThat(plan.rounds()).isEqualTo(BenchPlanBuilder.DEFAULT_SWEEP_ROUNDS);
        assertThat(plan.at(plan.sweep().get(2)).load().valueSize()).isEqualTo(1024);
        assertThat(plan.at(plan.sweep().get(2)).forkUnderLoad().load().valueSize())
                .isEqualTo(1024);
        assertThat(plan.at(plan.sweep().get(2)).isSweep()).isFalse();

        BenchPlan yaml =
                new BenchPlanBuilder().valueSizes(List.of(64, 512)).rounds(2).build();
        assertThat(yaml.sweep()).extracting(SweepPoint::valueSize).containsExactly(64, 512);
        assertThat(yaml.rounds()).isEqualTo(2);
    }

    @Test
    void tcpNoDelayIsOneSettingOrASweepOfBoth() {
        BenchPlan off = new BenchPlanBuilder().tcpNoDelay(List.of("off")).build();
        assertThat(off.tcpNoDelay()).contains(false);
        assertThat(off.isSweep()).isFalse();

        BenchPlan both = new BenchPlanBuilder()
                .tcpNoDelay(List.of(true, false))
                .valueSizes(List.of("64,1024"))
                .build();
        assertThat(both.sweep())
                .containsExactly(
                        new SweepPoint(64, Optional.of(true)),
                        new SweepPoint(1024, Optional.of(true)),
                        new SweepPoint(64, Optional.of(false)),
                        new SweepPoint(1024, Optional.of(false)));
        assertThat(both.at(both.sweep().get(3)).tcpNoDelay()).contains(false);
    }

    @Test
    void badValuesNameTheFieldAndTheValue() {
        record Case(Runnable build, BenchPlanBuilder.Field field, String message) {}
        List<Case> cases = List.of(
                new Case(
                        () -> new BenchPlanBuilder().valueSizes(List.of("64,abc")),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "expected a whole number from 1 to 1048576, was 'abc'"),
                new Case(
                        () -> new BenchPlanBuilder().valueSizes(List.of("64,,512")),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "was ''"),
                new Case(
                        () -> new BenchPlanBuilder().valueSizes(List.of(0)),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "was '0'"),
                new Case(
                        () -> new BenchPlanBuilder().valueSizes(List.of(new BigInteger("18446744073709551617"))),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "was '18446744073709551617'"),
                new Case(
                        () -> new BenchPlanBuilder().valueSizes(List.of("64,512,64")),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "lists 64 twice"),
                new Case(
                        () -> new BenchPlanBuilder().valueSizes(List.of()),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "give at least one size"),
                new Case(
                        () -> new BenchPlanBuilder().tcpNoDelay(List.of("maybe")),
                        BenchPlanBuilder.Field.TCP_NODELAY,
                        "expected on or off, was 'maybe'"),
                new Case(
                        () -> new BenchPlanBuilder().tcpNoDelay(List.of("on,on")),
                        BenchPlanBuilder.Field.TCP_NODELAY,
                        "lists on twice"),
                new Case(
                        () -> new BenchPlanBuilder()
                                .engine("redis-benchmark")
                                .tcpNoDelay(List.of("off"))
                                .build(),
                        BenchPlanBuilder.Field.TCP_NODELAY,
                        "only for engine builtin"),
                new Case(
                        () -> new BenchPlanBuilder()
                                .engine("redis-benchmark")
                                .valueSizes(List.of("64,131072"))
                                .build(),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "redis-benchmark takes at most 65536 bytes"),
                new Case(
                        () -> new BenchPlanBuilder()
                                .phase(Phase.AFTER)
                                .valueSizes(List.of("64,512"))
                                .build(),
                        BenchPlanBuilder.Field.VALUE_SIZE,
                        "no before/after phase"));
        for (Case c : cases) {
            assertThatThrownBy(c.build::run)
                    .isInstanceOfSatisfying(BenchPlanBuilder.Invalid.class, e -> {
                        assertThat(e.field()).isEqualTo(c.field);
                        assertThat(e.render(c.field.option())).startsWith(c.field.option() + ": ");
                        assertThat(e.render(c.field.key())).startsWith(c.field.key() + ": ");
                    })
                    .hasMessageContaining(c.message);
        }
    }

    @Test
    void theClientSettingsReadAsThePlaybookWritesThem() {
        BenchPlan plan = new BenchPlanBuilder()
                .mix(java.util.Map.of("set", 3, "get", 1))
                .duration(java.time.Duration.ofSeconds(3))
                .warmup(java.time.Duration.ofMillis(500))
                .build();
        assertThat(plan.clientSettings())
                .contains(", mix SET 75 % GET 25 %, ")
                .contains(", duration 3s, ")
                .contains(", warmup 500ms, ")
                .doesNotContain("PT")
                .doesNotContain("{");
        assertThat(new BenchPlanBuilder().tests(List.of("set")).build().clientSettings())
                .contains(", mix SET 100 %, ");
        assertThat(new BenchPlanBuilder().engine("redis-benchmark").build().clientSettings())
                .contains(", tests set get, ")
                .doesNotContain("Optional");
    }
}
