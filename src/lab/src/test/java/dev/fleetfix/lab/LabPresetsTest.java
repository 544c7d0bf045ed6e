package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabPresetsTest {
    @Test
    void operatorsIsOneHostOfEachShapeNamedAfterItWithNoServiceInTheInventory() {
        List<LabHostSpec> specs = LabPresets.parse(List.of("operators")).specs(1);

        assertThat(specs)
                .extracting(LabHostSpec::name)
                .containsExactly(
                        "sysv-1",
                        "supervisord-1",
                        "tuned-1",
                        "template-unit-1",
                        "sudo-password-1",
                        "su-password-1",
                        "container-1",
                        "ssh-cert-1");
        assertThat(specs).noneMatch(LabHostSpec::serviceInInventory);
        assertThat(specs.get(0).serviceShape()).isEqualTo(LabServiceShape.INSTALL_SERVER);
        assertThat(specs.get(1).serviceShape()).isEqualTo(LabServiceShape.SUPERVISORD);
        assertThat(specs.get(2).tunedThp()).isTrue();
        assertThat(specs.get(3).serviceShape()).isEqualTo(LabServiceShape.DEBIAN_INSTANCE);
        assertThat(specs.get(4).sudoPassword()).isPresent();
        assertThat(specs.get(5).rootPassword()).isPresent();
        assertThat(specs.get(5).sudoPassword()).isEmpty();
        assertThat(specs.get(6).serviceShape()).isEqualTo(LabServiceShape.COMPOSE);
        assertThat(specs.get(6).dockerCli())
                .as("the compose project's docker socket")
                .isTrue();
        assertThat(specs).filteredOn(LabHostSpec::sshCertificates).containsExactly(specs.get(7));
    }

    @Test
    void aComposeHostNeedsTheDockerSocket() {
        assertThatThrownBy(() -> LabHostSpec.builder("compose-1")
                        .serviceShape(LabServiceShape.COMPOSE)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a compose project's Redis needs dockerCli");
    }

    @Test
    void shapesCombineAsACommaListOrRepeatedInTheOrderGivenAndEachGivesHostsOfItsOwn() {
        LabPresets presets = LabPresets.parse(List.of("supervisord,sysv", "sysv", " tuned"));

        assertThat(presets.cliName()).isEqualTo("supervisord,sysv,tuned");
        assertThat(presets.defaultHosts()).isEqualTo(1);
        assertThat(presets.specs(2))
                .extracting(LabHostSpec::name)
                .containsExactly("supervisord-1", "supervisord-2", "sysv-1", "sysv-2", "tuned-1", "tuned-2");
        assertThat(presets.maxHosts() * 3).isLessThanOrEqualTo(LabFleet.MAX_HOSTS);
    }

    @Test
    void eachLabHasPasswordsOfItsOwn() {
        String first = LabPreset.SUDO_PASSWORD.specs(1).get(0).sudoPassword().orElseThrow();
        String second = LabPreset.SUDO_PASSWORD.specs(1).get(0).sudoPassword().orElseThrow();

        assertThat(first).hasSize(20).isNotEqualTo(second);
    }

    @Test
    void anUnknownPresetIsRefusedNamingEveryValidOne() {
        assertThatThrownBy(() -> LabPresets.parse(List.of("sysv,systemv")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'systemv'")
                .hasMessageContaining("thp-always, mixed, replicated, sentinel, cluster, eras, scale, sysv,"
                        + " supervisord, tuned, template-unit, sudo-password, su-password, container, ssh-cert or"
                        + " operators");
        assertThatThrownBy(() -> LabPresets.parse(List.of("sysv,"))).hasMessageContaining("unknown lab preset ''");
    }

    @Test
    void aFleetPresetStandsAlone() {
        assertThat(LabPresets.parse(List.of("mixed")).specs(3))
                .extracting(LabHostSpec::name)
                .containsExactly("lab-1", "lab-2", "lab-3");
        assertThatThrownBy(() -> LabPresets.parse(List.of("mixed,sysv")))
                .hasMessageContaining("a fleet preset")
                .hasMessageContaining("stands alone")
                .hasMessageContaining("was mixed, sysv");
        assertThatThrownBy(() -> LabPresets.parse(List.of("eras", "scale"))).hasMessageContaining("stands alone");
    }

    @Test
    void everyPresetHasOneHelpLineAndOperatorsNamesTheShapes() {
        List<String> lines = LabPresets.helpLines();

        assertThat(lines).hasSize(LabPreset.values().length + 1);
        for (LabPreset preset : LabPreset.values()) {
            assertThat(lines).anyMatch(line -> line.startsWith("  " + preset.cliName() + " "));
        }
        assertThat(lines.get(lines.size() - 1))
                .startsWith("  operators ")
                .contains("one host of each operator shape (sysv to ssh-cert)");
        assertThat(lines).as("80 columns, so that picocli does not wrap them").allMatch(line -> line.length() < 80);
    }
}
