package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.assertj.core.groups.Tuple;
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
                        false,
                        LabServer.REDIS_7_0,
                        1,
                        LabInit.SYSTEMD,
                        false,
                        LabServiceShape.DEBIAN_UNIT,
                        false,
                        true,
                        Optional.empty(),
                        Optional.empty(),
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
                .hasMessageContaining("thp-always, mixed, replicated, sentinel, cluster, eras");
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

    @Test
    void builderSetsEraShapeAndKeepsTheRest() {
        LabHostSpec spec = LabHostSpec.builder("lab-7")
                .thp(LabThp.NEVER)
                .init(LabInit.SYSV)
                .grub(true)
                .build();

        assertThat(spec.init()).isEqualTo(LabInit.SYSV);
        assertThat(spec.grub()).isTrue();
        assertThat(spec.thpEnabled()).isEqualTo(LabThp.NEVER);
        assertThat(spec.server()).isEqualTo(LabServer.REDIS_7_0);
        assertThat(spec.withPassword("pw").toBuilder().build())
                .isEqualTo(spec.withPassword("pw"))
                .extracting(LabHostSpec::init, LabHostSpec::grub)
                .containsExactly(LabInit.SYSV, true);
    }

    @Test
    void refusesShapesTheLabCannotBootNamingHostAndSettings() {
        assertThatThrownBy(() -> LabHostSpec.builder("lab-1")
                        .server(LabServer.REDIS_2_8)
                        .disableThp(true)
                        .build())
                .hasMessageContaining("host lab-1 (REDIS_2_8")
                .hasMessageContaining("no disable-thp");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-1")
                        .server(LabServer.REDIS_6_0)
                        .disableThp(true)
                        .build())
                .hasMessageContaining("host lab-1 (REDIS_6_0")
                .hasMessageContaining("Redis 6.0.5 has no disable-thp");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-2")
                        .server(LabServer.VALKEY_8_1)
                        .instances(3)
                        .build())
                .hasMessageContaining("host lab-2 (VALKEY_8_1, 3 instance(s)")
                .hasMessageContaining("template unit");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-3").instances(5).build())
                .hasMessageContaining("instances must be 1..4, was 5");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-4")
                        .init(LabInit.SYSV)
                        .sentinel(true)
                        .build())
                .hasMessageContaining("without systemd");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-5")
                        .server(LabServer.REDIS_2_8)
                        .replicaOf("lab-1")
                        .build())
                .hasMessageContaining("Redis 2.8 host cannot be a lab replica");
        assertThatThrownBy(() ->
                        LabHostSpec.builder("lab-6").instances(2).cluster(true).build())
                .hasMessageContaining("plain primary");
    }

    @Test
    void erasPresetHasOneHostOfEachShapeAndRepeatsTheCycle() {
        List<LabHostSpec> specs = LabPreset.parse("eras").specs(LabPreset.ERAS.defaultHosts());

        assertThat(specs)
                .extracting(LabHostSpec::name, LabHostSpec::server, LabHostSpec::instances, LabHostSpec::init)
                .containsExactly(
                        Tuple.tuple("lab-1", LabServer.REDIS_2_8, 1, LabInit.SYSTEMD),
                        Tuple.tuple("lab-2", LabServer.REDIS_6_2, 1, LabInit.SYSTEMD),
                        Tuple.tuple("lab-3", LabServer.REDIS_7_0, 1, LabInit.SYSTEMD),
                        Tuple.tuple("lab-4", LabServer.REDIS_8_0, 1, LabInit.SYSTEMD),
                        Tuple.tuple("lab-5", LabServer.VALKEY_8_1, 1, LabInit.SYSTEMD),
                        Tuple.tuple("lab-6", LabServer.REDIS_7_0, 3, LabInit.SYSTEMD),
                        Tuple.tuple("lab-7", LabServer.REDIS_7_0, 1, LabInit.SYSV));
        assertThat(specs).allMatch(LabHostSpec::grub);
        assertThat(specs).allMatch(s -> s.thpEnabled() == LabThp.ALWAYS);
        assertThat(LabPreset.ERAS.specs(9))
                .extracting(LabHostSpec::server)
                .endsWith(LabServer.REDIS_2_8, LabServer.REDIS_6_2);
        assertThat(LabPreset.MIXED.defaultHosts()).isEqualTo(3);
    }

    @Test
    void operatorShapesKeepTheirSettingsAndNameNoServiceWhenAsked() {
        LabHostSpec spec = LabHostSpec.builder("lab-1")
                .serviceShape(LabServiceShape.INSTALL_SERVER)
                .tunedThp(true)
                .serviceInInventory(false)
                .build();

        assertThat(spec.toBuilder().build()).isEqualTo(spec);
        assertThat(spec.withPassword("pw"))
                .extracting(LabHostSpec::serviceShape, LabHostSpec::tunedThp, LabHostSpec::serviceInInventory)
                .containsExactly(LabServiceShape.INSTALL_SERVER, true, false);
        assertThat(LabHostSpec.named("lab-2"))
                .extracting(LabHostSpec::serviceShape, LabHostSpec::tunedThp, LabHostSpec::serviceInInventory)
                .containsExactly(LabServiceShape.DEBIAN_UNIT, false, true);
    }

    @Test
    void refusesOperatorShapesOnHostsThatCannotRunThemNamingHostAndSettings() {
        assertThatThrownBy(() -> LabHostSpec.builder("lab-1")
                        .serviceShape(LabServiceShape.SUPERVISORD)
                        .server(LabServer.VALKEY_8_1)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("host lab-1 (VALKEY_8_1, 1 instance(s), SYSTEMD, SUPERVISORD)")
                .hasMessageContaining("server REDIS_7_0");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-2")
                        .serviceShape(LabServiceShape.INSTALL_SERVER)
                        .init(LabInit.SYSV)
                        .build())
                .hasMessageContaining("host lab-2")
                .hasMessageContaining("init SYSTEMD");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-3")
                        .serviceShape(LabServiceShape.DEBIAN_INSTANCE)
                        .instances(2)
                        .build())
                .hasMessageContaining("host lab-3 (REDIS_7_0, 2 instance(s)")
                .hasMessageContaining("instances 1");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-4")
                        .tunedThp(true)
                        .rhel6Thp(true)
                        .build())
                .hasMessageContaining("host lab-4")
                .hasMessageContaining("tuned")
                .hasMessageContaining("RHEL 6");
        assertThatThrownBy(() -> LabHostSpec.builder("lab-5")
                        .tunedThp(true)
                        .server(LabServer.REDIS_8_0)
                        .build())
                .hasMessageContaining("host lab-5 (REDIS_8_0")
                .hasMessageContaining("tuned runs on Debian 12 hosts");
        // several instances under Debian's template, each named by its port, stay possible
        assertThat(LabHostSpec.builder("lab-6").instances(3).build().instances())
                .isEqualTo(3);
    }
}
