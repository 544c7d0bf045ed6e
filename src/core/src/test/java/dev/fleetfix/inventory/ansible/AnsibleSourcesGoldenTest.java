package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.AnsibleInventory;
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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * INI, directory (group_vars/host_vars), script and {@code --list} JSON inventories against what
 * ansible-core 2.14 says about the same sources ({@code golden/ansible-*}, made by
 * {@code golden/regenerate.sh}). Values are compared as JSON trees, so types count: {@code 80} is
 * not {@code "80"}.
 */
class AnsibleSourcesGoldenTest {
    static final Path DIR = Path.of("src/core/src/test/resources/inventory/ansible");
    static final List<String> SOURCES = List.of("fleet.ini", "dir", "script-meta.sh", "script-nometa.sh", "list.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    static AnsibleInventory load(String source) {
        return InventorySources.load(DIR.resolve(source).toString(), Optional.empty());
    }

    static JsonNode golden(String source) throws IOException {
        return JSON.readTree(AnsibleGoldenTest.DIR
                .resolve("golden/ansible-" + source + ".inventory.json")
                .toFile());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet.ini", "dir", "script-meta.sh", "script-nometa.sh", "list.json"})
    void variablesOfEveryHostMatchAnsibleInventoryList(String source) throws IOException {
        Inventory inventory = load(source).inventory();
        JsonNode hostvars = golden(source).path("_meta").path("hostvars");

        for (Host host : inventory.hosts()) {
            JsonNode expected = hostvars.has(host.name()) ? hostvars.get(host.name()) : JSON.createObjectNode();
            assertThat((JsonNode) JSON.valueToTree(revealed(host.vars())))
                    .as("variables of %s from %s", host.name(), source)
                    .isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet.ini", "dir", "script-meta.sh", "script-nometa.sh", "list.json"})
    void groupsAndHostsMatchAnsibleInventoryList(String source) throws IOException {
        AnsibleInventory loaded = load(source);
        JsonNode golden = golden(source);

        Map<String, Set<String>> expected = new LinkedHashMap<>();
        golden.fieldNames().forEachRemaining(group -> {
            if (!group.equals("_meta")) {
                expected.put(group, flatten(golden, group));
            }
        });
        for (Map.Entry<String, Set<String>> group : expected.entrySet()) {
            assertThat(loaded.inventory().groups().get(group.getKey()))
                    .as("hosts of group %s", group.getKey())
                    .containsExactlyInAnyOrderElementsOf(group.getValue());
            assertThat(loaded.groups().get(group.getKey()).children())
                    .as("children of group %s", group.getKey())
                    .containsExactlyInAnyOrderElementsOf(
                            texts(golden.path(group.getKey()).path("children")));
        }
        assertThat(loaded.inventory().hosts())
                .extracting(Host::name)
                .containsExactlyInAnyOrderElementsOf(expected.get("all"));
    }

    static Stream<Arguments> patterns() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        for (String source : SOURCES) {
            Path golden = AnsibleGoldenTest.DIR.resolve("golden/ansible-" + source + ".list-hosts.txt");
            List<String> allOrder = null;
            for (String line : Files.readAllLines(golden)) {
                String[] parts = line.split("\t", -1);
                List<String> hosts = parts[1].isBlank() ? List.of() : Arrays.asList(parts[1].split(" "));
                if (parts[0].equals("all")) {
                    allOrder = hosts;
                }
                cases.add(Arguments.of(source, parts[0], hosts, allOrder));
            }
        }
        return cases.stream();
    }

    /** Same hosts as {@code ansible -i SOURCE PATTERN --list-hosts}, in the order of {@code all}. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("patterns")
    void selectionMatchesAnsibleListHosts(String source, String pattern, List<String> hosts, List<String> allOrder) {
        Inventory inventory = load(source).inventory();
        if (hosts.isEmpty()) {
            assertThatThrownBy(() -> HostPattern.parse(pattern).select(inventory))
                    .isInstanceOf(InputException.class)
                    .hasMessageContaining(pattern);
            return;
        }
        List<String> selected = HostPattern.parse(pattern).select(inventory).stream()
                .map(Host::name)
                .toList();
        assertThat(selected).containsExactlyInAnyOrderElementsOf(hosts);
        assertThat(inventory.hosts()).extracting(Host::name).containsExactlyElementsOf(allOrder);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
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
