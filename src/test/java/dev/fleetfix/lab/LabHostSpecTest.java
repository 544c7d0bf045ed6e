package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LabHostSpecTest {
    @Test
    void namedGivesAnUntunedDebianHost() {
        LabHostSpec spec = LabHostSpec.named("lab-1");

        assertThat(spec.thpEnabled()).isEqualTo(LabThp.ALWAYS);
        assertThat(spec.thpDefrag()).isEqualTo(LabThp.MADVISE);
        assertThat(spec.rhel6Thp()).isFalse();
        assertThat(spec.disableThp()).isFalse();
        assertThat(spec.save()).isEqualTo("3600 1");
        assertThat(spec.appendonly()).isFalse();
        assertThat(spec.replicaOf()).isEmpty();
        assertThat(spec.requirepass()).isEmpty();
    }

    @Test
    void withersChangeOneField() {
        LabHostSpec spec = LabHostSpec.named("lab-2")
                .withThp(LabThp.NEVER)
                .withRhel6Thp()
                .withDisableThp(true)
                .withSave("")
                .withAppendonly(true)
                .withReplicaOf("lab-1")
                .withPassword("pw");

        assertThat(spec)
                .isEqualTo(new LabHostSpec(
                        "lab-2",
                        LabThp.NEVER,
                        LabThp.MADVISE,
                        true,
                        true,
                        "",
                        true,
                        Optional.of("lab-1"),
                        Optional.of("pw"),
                        false,
                        false));
        assertThat(LabHostSpec.named("lab-3").withSentinel().sentinel()).isTrue();
        assertThat(LabHostSpec.named("lab-3").withCluster().cluster()).isTrue();
    }

    @Test
    void rejectsBadValuesNamingFieldAndValue() {
        assertThatThrownBy(() -> LabHostSpec.named("Lab_1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Lab_1'");
        assertThatThrownBy(() -> LabHostSpec.named("lab-1").withSave("every minute"))
                .hasMessageContaining("save")
                .hasMessageContaining("'every minute'");
        assertThatThrownBy(() -> LabHostSpec.named("lab-1").withReplicaOf("lab-1"))
                .hasMessageContaining("replicaOf");
        assertThatThrownBy(() -> LabHostSpec.named("lab-1").withPassword("with space"))
                .hasMessageContaining("requirepass");
        assertThatThrownBy(() -> LabHostSpec.named("lab-1").withCluster().withSentinel())
                .hasMessageContaining("host lab-1")
                .hasMessageContaining("sentinel=true, cluster=true");
    }

    @Test
    void thpFilesReadAsTheKernelWritesThem() {
        assertThat(LabThp.ALWAYS.enabledFile(false)).isEqualTo("[always] madvise never\n");
        assertThat(LabThp.MADVISE.defragFile(false)).isEqualTo("always defer defer+madvise [madvise] never\n");
        assertThat(LabThp.NEVER.defragFile(true)).isEqualTo("always madvise [never]\n");
    }

    @Test
    void replicatedPresetPointsEveryOtherHostAtTheFirst() {
        assertThat(LabPreset.REPLICATED.specs(3))
                .extracting(LabHostSpec::replicaOf)
                .containsExactly(Optional.empty(), Optional.of("lab-1"), Optional.of("lab-1"));
        assertThat(LabPreset.parse("thp-always")).isEqualTo(LabPreset.THP_ALWAYS);
        assertThatThrownBy(() -> LabPreset.parse("all-never"))
                .hasMessageContaining("thp-always, mixed, replicated, sentinel, cluster");
    }

    @Test
    void sentinelPresetIsReplicatedWithASentinelOnEveryHost() {
        List<LabHostSpec> specs = LabPreset.parse("sentinel").specs(3);

        assertThat(specs)
                .extracting(LabHostSpec::replicaOf)
                .containsExactly(Optional.empty(), Optional.of("lab-1"), Optional.of("lab-1"));
        assertThat(specs).allMatch(LabHostSpec::sentinel).noneMatch(LabHostSpec::cluster);
        assertThat(specs).extracting(LabHostSpec::save).containsOnly("3600 1");
        assertThatThrownBy(() -> LabPreset.SENTINEL.specs(1)).hasMessageContaining("2 hosts at least");
    }

    @Test
    void clusterPresetPairsEachPrimaryWithTheNextHost() {
        List<LabHostSpec> specs = LabPreset.CLUSTER.specs(5);

        assertThat(specs).allMatch(LabHostSpec::cluster).noneMatch(LabHostSpec::sentinel);
        assertThat(specs)
                .extracting(LabHostSpec::replicaOf)
                .containsExactly(
                        Optional.empty(),
                        Optional.of("lab-1"),
                        Optional.empty(),
                        Optional.of("lab-3"),
                        Optional.empty());
    }
}
