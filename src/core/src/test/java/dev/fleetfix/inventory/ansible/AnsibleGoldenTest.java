package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks loading and selection against what Ansible itself says about the same files. The golden
 * files under {@code inventory/golden/} were produced with {@code ansible-inventory --list} and
 * {@code ansible PATTERN --list-hosts} of ansible-core 2.14 (see {@code golden/regenerate.sh});
 * these tests only read them.
 */
class AnsibleGoldenTest {
    static final Path DIR = Path.of("src/core/src/test/resources/inventory");
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"fleet", "precedence", "toplevel", "shortkeys", "ranges"})
    void variablesOfEveryHostMatchAnsibleInventoryList(String fixture) throws IOException {
        Inventory inventory = InventoryLoader.load(DIR.resolve(fixture + ".yaml"));
        JsonNode golden = JSON.readTree(
                DIR.resolve("golden/" + fixture + ".inventory.json").toFile());

        JsonNode hostvars = golden.path("_meta").path("hostvars");
        for (Host host : inventory.hosts()) {
            JsonNode expected = hostvars.has(host.name()) ? hostvars.get(host.name()) : JSON.createObjectNode();
            assertThat((JsonNode) JSON.valueToTree(revealed(host.vars())))
                    .as("variables of %s", host.name())
                    .isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet", "precedence", "toplevel", "shortkeys", "ranges"})
    void groupsAndHostsMatchAnsibleInventoryList(String fixture) throws IOException {
        Inventory inventory = InventoryLoader.load(DIR.resolve(fixture + ".yaml"));
        JsonNode golden = JSON.readTree(
                DIR.resolve("golden/" + fixture + ".inventory.json").toFile());

        Map<String, Set<String>> expected = new LinkedHashMap<>();
        golden.fieldNames().forEachRemaining(group -> {
            if (!group.equals("_meta")) {
                expected.put(group, flatten(golden, group));
            }
        });
        for (Map.Entry<String, Set<String>> group : expected.entrySet()) {
            assertThat(inventory.groups().get(group.getKey()))
                    .as("hosts of group %s", group.getKey())
                    .containsExactlyInAnyOrderElementsOf(group.getValue());
        }
        assertThat(inventory.hosts()).extracting(Host::name).containsExactlyInAnyOrderElementsOf(expected.get("all"));
    }

    static Stream<Arguments> patterns() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (String fixture : List.of("fleet", "precedence", "toplevel", "shortkeys", "ranges")) {
            Path golden = DIR.resolve("golden/" + fixture + ".list-hosts.txt");
            List<String> allOrder = null;
            for (String line : Files.readAllLines(golden)) {
                String[] parts = line.split("\t", -1);
                List<String> hosts = parts[1].isBlank() ? List.of() : Arrays.asList(parts[1].split(" "));
                if (parts[0].equals("all")) {
                    allOrder = hosts;
                }
                cases.add(Arguments.of(fixture, parts[0], hosts, allOrder));
            }
        }
        return cases.stream();
    }

    /**
     * Same hosts as {@code ansible PATTERN --list-hosts}; in the order of {@code all}, which is the
     * order {@code ansible-playbook --limit PATTERN} runs a {@code hosts: all} play in.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("patterns")
    void selectionMatchesAnsibleListHosts(String fixture, String pattern, List<String> hosts, List<String> allOrder) {
        Inventory inventory = InventoryLoader.load(DIR.resolve(fixture + ".yaml"));
        if (hosts.isEmpty()) {
            assertThatThrownBy(() -> HostPattern.parse(pattern).select(inventory))
                    .isInstanceOf(InputException.class)
                    .hasMessageContaining(pattern);
            return;
        }
        List<String> selected = HostPattern.parse(pattern).select(inventory).stream()
                .map(Host::name)
                .toList();
        List<String> inInventoryOrder =
                allOrder.stream().filter(hosts::contains).toList();
        assertThat(selected).containsExactlyElementsOf(inInventoryOrder);
    }

    private static Set<String> flatten(JsonNode golden, String group) {
        Set<String> hosts = new LinkedHashSet<>();
        golden.path(group).path("hosts").forEach(h -> hosts.add(h.asText()));
        golden.path(group).path("children").forEach(child -> hosts.addAll(flatten(golden, child.asText())));
        return hosts;
    }

    private static Map<String, Object> revealed(Map<String, Object> vars) {
        Map<String, Object> out = new LinkedHashMap<>(vars);
        out.replaceAll((k, v) -> v instanceof Secret s ? s.reveal() : v);
        return out;
    }
}
