package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the inventory's YAML is read: aliases, merge keys, several documents, tabs, sizes. */
class InventoryYamlTest {
    @TempDir
    Path tmp;

    @Test
    void anAliasIsTheAnchoredValueNotItsName() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    gateway: &gw 10.0.0.7
                  hosts:
                    redis-1:
                      ansible_host: *gw
                """);

        assertThat(inventory.host("redis-1").orElseThrow().address()).isEqualTo("10.0.0.7");
    }

    @Test
    void aMergeKeyBringsInTheAnchoredMappingAndOwnKeysWin() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    defaults: &defaults {redis_port: 6380, tier: cache}
                  hosts:
                    redis-1:
                      <<: *defaults
                      tier: session
                """);

        Host host = inventory.host("redis-1").orElseThrow();
        assertThat(host.redis().port()).isEqualTo(6380);
        assertThat(host.vars()).containsEntry("tier", "session").doesNotContainKey("<<");
    }

    @Test
    void anAliasBombIsRefusedInBoundedTime() throws IOException {
        StringBuilder yaml =
                new StringBuilder("all:\n  vars:\n    l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 12; i++) {
            yaml.append("    l").append(i).append(": &l").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                yaml.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
            }
            yaml.append("]\n");
        }
        yaml.append("  hosts:\n    redis-1:\n");

        assertThatThrownBy(() -> load(yaml.toString()))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("inventory.yaml:")
                .hasMessageContaining("alias bomb");
    }

    @Test
    void aRecursiveAliasIsRefused() throws IOException {
        assertThatThrownBy(() -> load("all:\n  vars:\n    loop: &a [1, *a]\n  hosts:\n    redis-1:\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("recursive alias");
    }

    @Test
    void aSecondDocumentIsRefusedWhereItStarts() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    redis-1:\n---\nall:\n  hosts:\n    redis-2:\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("inventory.yaml:4:1: a second YAML document");
    }

    @Test
    void aTabPointsAtItsOwnLine() throws IOException {
        InputException e = (InputException) org.assertj.core.api.Assertions.catchThrowable(
                () -> load("all:\n  hosts:\n    redis-1:\n\tredis-2:\n"));

        assertThat(e.line()).isEqualTo(4);
        assertThat(e.getMessage()).contains("inventory.yaml:4:1:").contains("a tab in the indentation of line 4");
    }

    @Test
    void aHostWrittenTwiceIsAWarningAndTheLastValueWins() throws IOException {
        Inventory inventory =
                load("all:\n  hosts:\n    redis-1: {redis_port: 6380}\n    redis-1: {redis_port: 6381}\n");

        assertThat(inventory.hosts()).hasSize(1);
        assertThat(inventory.host("redis-1").orElseThrow().redis().port()).isEqualTo(6381);
        assertThat(inventory.warnings())
                .singleElement()
                .asString()
                .contains("inventory.yaml:4:5: duplicate key \"redis-1\" (first at line 3)");
    }

    @Test
    void anInputOverTheSizeLimitSaysItIsASizeLimit() throws IOException {
        Path huge = tmp.resolve("huge.yaml");
        try (OutputStream out = Files.newOutputStream(huge)) {
            byte[] line = "# filler filler filler filler filler filler filler filler filler filler\n".getBytes();
            for (long written = 0; written <= 33L * 1024 * 1024; written += line.length) {
                out.write(line);
            }
        }

        assertThatThrownBy(() -> InventoryLoader.load(huge))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("huge.yaml: inventory is larger than the size limit of 32 MiB");
    }

    @Test
    void endlessInputIsCutAtTheSizeLimit() {
        assertThatThrownBy(() -> InventoryLoader.load(Path.of("/dev/zero")))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("size limit");
    }

    @Test
    void aDirectoryAndBinaryAreClearErrors() throws IOException {
        assertThatThrownBy(() -> InventoryLoader.load(tmp))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("is a directory");
        Path binary = tmp.resolve("binary.yaml");
        Files.write(binary, new byte[] {'a', 'l', 'l', ':', '\n', ' ', (byte) 0xff, (byte) 0xfe});
        assertThatThrownBy(() -> InventoryLoader.load(binary))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("binary.yaml:2:2: inventory is not UTF-8 text");
    }

    @Test
    void aHundredThousandHostInventoryFitsTheSizeLimit() throws IOException {
        StringBuilder yaml = new StringBuilder("all:\n  hosts:\n");
        for (int i = 0; i < 100_000; i++) {
            yaml.append("    redis-")
                    .append(i)
                    .append(": {ansible_host: 10.")
                    .append(i / 65536)
                    .append('.')
                    .append((i / 256) % 256)
                    .append('.')
                    .append(i % 256)
                    .append(", redis_port: 6379}\n");
        }

        Inventory inventory = load(yaml.toString());

        assertThat(inventory.hosts()).hasSize(100_000);
        assertThat(inventory.groups()).containsKey("ungrouped");
        assertThat(Map.copyOf(inventory.groups()).get("all")).hasSize(100_000);
    }

    @Test
    void aLineLongerThanTheLineLimitIsRefusedBeforeParsing() throws IOException {
        String yaml = "all:\n  hosts:\n    r1:\n      big: \"" + "a".repeat(2 * 1024 * 1024) + "\"\n";

        assertThatThrownBy(() -> load(yaml))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("inventory.yaml:4:1: line 4 is 2097165 characters long, over the limit");
    }

    @Test
    void anUnclosedQuoteIsNamedWhereItOpens() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    r1: {ansible_host: \"10.0.0.1}\n"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("inventory.yaml:3:24: YAML syntax error: a quote opened here is never closed");
    }

    @Test
    void deepNestingIsRefusedWithItsPlace() throws IOException {
        String yaml = "all:\n  vars:\n    deep: " + "[".repeat(500) + "]".repeat(500) + "\n  hosts:\n    r1:\n";

        InputException e = (InputException) org.assertj.core.api.Assertions.catchThrowable(() -> load(yaml));

        assertThat(e).hasMessageContaining("nested deeper than 100 levels");
        assertThat(e.line()).isEqualTo(3);
    }

    private Inventory load(String yaml) throws IOException {
        Path file = tmp.resolve("inventory.yaml");
        Files.writeString(file, yaml);
        return InventoryLoader.load(file);
    }
}
