package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
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
