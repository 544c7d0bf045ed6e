package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleetfix.yaml.LocatedYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code fleetfix inventory} prints what {@code ansible-inventory} prints for the same sources (goldens). */
class InventoryCommandTest {
    private static final Path SOURCES = Path.of("src/core/src/test/resources/inventory/ansible");
    private static final Path GOLDEN = Path.of("src/core/src/test/resources/inventory/golden");
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"fleet.ini", "dir", "script-meta.sh", "script-nometa.sh", "list.json"})
    void listIsTheJsonOfAnsibleInventoryList(String source) throws IOException {
        CliRun run = CliRun.of(
                        "inventory", "-F", "none", "-i", SOURCES.resolve(source).toString(), "--list")
                .expectExit(ExitCode.OK);

        JsonNode golden = JSON.readTree(
                GOLDEN.resolve("ansible-" + source + ".inventory.json").toFile());
        assertThat(JSON.readTree(run.stdout())).as(run.toString()).isEqualTo(golden);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dir", "script-meta.sh", "list.json"})
    void listIsByteForByteAnsibleInventoryListWhereAnsibleCouldSortItsKeys(String source) throws IOException {
        CliRun run = CliRun.of(
                        "inventory", "-F", "none", "-i", SOURCES.resolve(source).toString(), "--list")
                .expectExit(ExitCode.OK);

        assertThat(run.stdout()).isEqualTo(Files.readString(GOLDEN.resolve("ansible-" + source + ".inventory.json")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet.ini", "dir", "script-meta.sh", "script-nometa.sh", "list.json"})
    void listYamlIsTheYamlOfAnsibleInventoryListYaml(String source) throws IOException {
        CliRun run = CliRun.of(
                        "inventory", "-F", "none", "-i", SOURCES.resolve(source).toString(), "--list", "--yaml")
                .expectExit(ExitCode.OK);

        String golden = Files.readString(GOLDEN.resolve("ansible-" + source + ".inventory.yaml"));
        assertThat(yaml(run.stdout())).as(run.toString()).isEqualTo(yaml(golden));
    }

    /**
     * The YAML is another shape of the same inventory: walked from {@code all}, it names the groups, their children
     * and hosts, and the host variables that {@code --list}'s JSON names, with and without {@code --limit}.
     */
    @ParameterizedTest
    @CsvSource({"fleet.ini,all", "dir,all", "dir,cache:&redis", "script-meta.sh,all", "list.json,s*"})
    void listYamlHoldsWhatListHolds(String source, String limit) {
        String[] list = {
            "inventory", "-F", "none", "-i", SOURCES.resolve(source).toString(), "--limit", limit, "--list"
        };
        CliRun json = CliRun.of(list).expectExit(ExitCode.OK);
        CliRun yaml = CliRun.of(append(list, "--yaml")).expectExit(ExitCode.OK);

        JsonNode fromJson = readJson(json.stdout());
        JsonNode fromYaml = yaml(yaml.stdout());
        assertThat(fromYaml.fieldNames()).toIterable().containsExactly("all");
        Map<String, Map<String, List<String>>> yamlGroups = new TreeMap<>();
        Map<String, JsonNode> yamlVars = new TreeMap<>();
        walk("all", fromYaml.path("all"), yamlGroups, yamlVars);
        Map<String, Map<String, List<String>>> jsonGroups = new TreeMap<>();
        for (String group : yamlGroups.keySet()) {
            JsonNode body = fromJson.path(group);
            jsonGroups.put(
                    group, Map.of("children", sorted(body.path("children")), "hosts", sorted(body.path("hosts"))));
        }
        Map<String, JsonNode> jsonVars = new TreeMap<>();
        fromJson.path("_meta").path("hostvars").fields().forEachRemaining(e -> jsonVars.put(e.getKey(), e.getValue()));

        assertThat(yamlGroups).as(yaml.toString()).isEqualTo(jsonGroups);
        assertThat(yamlVars).as(yaml.toString()).isEqualTo(jsonVars);
        List<String> jsonGroupNames = new ArrayList<>();
        fromJson.fieldNames().forEachRemaining(jsonGroupNames::add);
        jsonGroupNames.remove("_meta");
        assertThat(yamlGroups.keySet()).containsAll(jsonGroupNames);
    }

    @Test
    void hostYamlIsTheHostsVariablesOfHost() {
        String[] host = {"inventory", "-F", "none", "-i", SOURCES.resolve("dir").toString(), "--host", "r1"};
        CliRun json = CliRun.of(host).expectExit(ExitCode.OK);
        CliRun yaml = CliRun.of(append(host, "--yaml")).expectExit(ExitCode.OK);

        assertThat(yaml(yaml.stdout())).as(yaml.toString()).isEqualTo(readJson(json.stdout()));
    }

    /** Strings YAML 1.1 would read as a number, a date, a boolean or a tag if they were written plain. */
    @Test
    void listYamlKeepsEveryStringAString(@TempDir Path dir) throws IOException {
        List<String> awkward = List.of(
                "12:30",
                "0x1F",
                "1_000",
                "0o17",
                "1e3",
                ".inf",
                "2001-01-01",
                "=",
                "<<",
                "yes",
                "off",
                "~",
                "5",
                "-1",
                "@x",
                "a #b",
                "x: y",
                "line\nbreak",
                " lead",
                "é");
        StringBuilder yaml = new StringBuilder("all:\n  hosts:\n    r1:\n");
        for (int i = 0; i < awkward.size(); i++) {
            yaml.append("      v")
                    .append(i)
                    .append(": ")
                    .append(JSON.writeValueAsString(awkward.get(i)))
                    .append('\n');
        }
        yaml.append("  children:\n    \"0x1F\":\n      hosts:\n        r2:\n");
        Path file = Files.writeString(dir.resolve("awkward.yaml"), yaml);
        CliRun run = CliRun.of("inventory", "-F", "none", "-i", file.toString(), "--list", "--yaml")
                .expectExit(ExitCode.OK);

        JsonNode groups = yaml(run.stdout()).path("all").path("children");
        JsonNode hosts = groups.path("ungrouped").path("hosts");
        for (int i = 0; i < awkward.size(); i++) {
            assertThat(hosts.path("r1").path("v" + i).isTextual())
                    .as(run.toString())
                    .isTrue();
            assertThat(hosts.path("r1").path("v" + i).asText())
                    .as(run.toString())
                    .isEqualTo(awkward.get(i));
        }
        assertThat(groups.path("0x1F").path("hosts").has("r2"))
                .as(run.toString())
                .isTrue();
    }

    @Test
    void yamlIsForListAndHostOnly() {
        CliRun run = CliRun.of(
                        "inventory", "-F", "none", "-i", SOURCES.resolve("dir").toString(), "--graph", "--yaml")
                .expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains("--yaml: only with --list or --host");
    }

    /** A group's children and hosts and its hosts' variables where they stand, from a --list --yaml tree. */
    private static void walk(
            String name, JsonNode body, Map<String, Map<String, List<String>>> groups, Map<String, JsonNode> vars) {
        groups.put(name, Map.of("children", sorted(body.path("children")), "hosts", sorted(body.path("hosts"))));
        body.path("children").fields().forEachRemaining(child -> walk(child.getKey(), child.getValue(), groups, vars));
        body.path("hosts").fields().forEachRemaining(host -> {
            if (!host.getValue().isEmpty()) {
                assertThat(vars.put(host.getKey(), host.getValue()))
                        .as("the variables of " + host.getKey() + " stand once")
                        .isNull();
            }
        });
    }

    /** Field names of an object, or elements of an array, sorted. */
    private static List<String> sorted(JsonNode node) {
        List<String> names = new ArrayList<>();
        Iterator<String> fields = node.fieldNames();
        fields.forEachRemaining(names::add);
        node.elements().forEachRemaining(e -> {
            if (e.isTextual()) {
                names.add(e.asText());
            }
        });
        return names.stream().sorted().toList();
    }

    private static String[] append(String[] args, String more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add(more);
        return all.toArray(String[]::new);
    }

    private static JsonNode readJson(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError(text, e);
        }
    }

    /** YAML as Ansible reads it (the located reader: YAML 1.1, aliases resolved), as a JSON tree. */
    private static JsonNode yaml(String text) {
        return JSON.valueToTree(LocatedYaml.parse(Path.of("stdout"), text, warning -> {})
                .orElseThrow()
                .plain());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet.ini", "dir", "script-meta.sh", "script-nometa.sh", "list.json"})
    void graphIsAnsibleInventoryGraph(String source) throws IOException {
        CliRun run = CliRun.of(
                        "inventory", "-F", "none", "-i", SOURCES.resolve(source).toString(), "--graph")
                .expectExit(ExitCode.OK);

        assertThat(run.stdout()).isEqualTo(Files.readString(GOLDEN.resolve("ansible-" + source + ".graph.txt")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"r1", "c1", "s1"})
    void hostPrintsOneHostsVariablesAsInTheList(String host) throws IOException {
        CliRun run = CliRun.of(
                        "inventory", "-F", "none", "-i", SOURCES.resolve("dir").toString(), "--host", host)
                .expectExit(ExitCode.OK);

        JsonNode golden =
                JSON.readTree(GOLDEN.resolve("ansible-dir.inventory.json").toFile());
        assertThat(JSON.readTree(run.stdout()))
                .isEqualTo(golden.path("_meta").path("hostvars").path(host));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nope", "--graph=nope"})
    void unknownHostOrGroupIsBadInput(String what) {
        String[] args = what.startsWith("--")
                ? new String[] {
                    "inventory", "-F", "none", "-i", SOURCES.resolve("dir").toString(), what
                }
                : new String[] {
                    "inventory", "-F", "none", "-i", SOURCES.resolve("dir").toString(), "--host", what
                };
        CliRun run = CliRun.of(args).expectExit(ExitCode.USAGE);

        assertThat(run.stderr()).contains("nope").contains("not in the inventory");
    }

    @Test
    void hostGivenAGroupOfOneHostPrintsThatHostAsAnsibleInventoryDoes(@TempDir Path dir) throws IOException {
        Path ini = Files.writeString(dir.resolve("hosts.ini"), "[one]\nsolo x=1\n[two]\nt1\nt2\n");

        CliRun one = CliRun.of("inventory", "-F", "none", "-i", ini.toString(), "--host", "one")
                .expectExit(ExitCode.OK);
        CliRun two = CliRun.of("inventory", "-F", "none", "-i", ini.toString(), "--host", "two")
                .expectExit(ExitCode.USAGE);

        assertThat(JSON.readTree(one.stdout())).isEqualTo(JSON.readTree("{\"x\": 1}"));
        assertThat(two.stderr())
                .isEqualTo("fleetfix: --host two selects 2 hosts (t1, t2): give a single host, as ansible-inventory"
                        + " wants" + System.lineSeparator());
    }

    @Test
    void aHostOfAConnectionFleetfixLacksIsListedAsAnsibleListsIt(@TempDir Path dir) throws IOException {
        Path ini = Files.writeString(dir.resolve("hosts.ini"), "[win]\nw1 ansible_connection=winrm\n[redis]\nr1\n");

        CliRun run = CliRun.of("inventory", "-F", "none", "-i", ini.toString(), "--list")
                .expectExit(ExitCode.OK);

        JsonNode list = JSON.readTree(run.stdout());
        assertThat(list.path("win").path("hosts").get(0).asText()).isEqualTo("w1");
        assertThat(list.path("_meta")
                        .path("hostvars")
                        .path("w1")
                        .path("ansible_connection")
                        .asText())
                .isEqualTo("winrm");
    }

    /** kubespray's sample inventory names its groups and leaves every host commented out, for the operator to fill. */
    @Test
    void anInventoryOfGroupsWithoutHostsListsItsGroupsAsAnsibleInventoryDoes(@TempDir Path dir) throws IOException {
        Path ini = Files.writeString(
                dir.resolve("inventory.ini"), "[kube_control_plane]\n# node1\n[etcd:children]\nkube_control_plane\n");

        CliRun list = CliRun.of("inventory", "-F", "none", "-i", ini.toString(), "--list")
                .expectExit(ExitCode.OK);
        CliRun limited = CliRun.of("inventory", "-F", "none", "-i", ini.toString(), "--list", "-l", "etcd")
                .expectExit(ExitCode.USAGE);

        // ansible-inventory 2.14's --list of the same file
        assertThat(JSON.readTree(list.stdout()))
                .as(list.toString())
                .isEqualTo(JSON.readTree("{\"_meta\": {\"hostvars\": {}}, \"all\": {\"children\": [\"ungrouped\","
                        + " \"etcd\"]}, \"etcd\": {\"children\": [\"kube_control_plane\"]}}"));
        assertThat(limited.stderr()).as(limited.toString()).contains("etcd");
    }
}
