package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostSelection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one way in: what the command line gives is read as Ansible would, and selected from with --limit. */
class InventoryServiceTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private InventoryService service(Map<String, String> env) {
        return new InventoryService(
                new AnsibleEnvironment(env, dir, dir, true),
                new InventoryService.Messages(warnings::add, warnings::add, notes::add));
    }

    private InventoryInput hosts(String ini) throws IOException {
        Path file = Files.writeString(dir.resolve("hosts.ini"), ini);
        return InventoryInputBuilder.builder(emptyInput())
                .sources(List.of(file))
                .build();
    }

    private static InventoryInput emptyInput() {
        return new InventoryInput(
                List.of(),
                false,
                List.of(),
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                List.of(),
                List.of(),
                Optional.empty(),
                Optional.empty());
    }

    @Test
    void theLimitSelectsAndTheCommandLineUserFillsWhatTheInventoryLeftUnset() throws IOException {
        InventoryInput input = hosts("[redis]\nr1\nr2 ansible_user=ops\nr3\n").withUser(Optional.of("deploy"));

        HostSelection selection = service(Map.of()).load(input, Optional.of("redis:!r3"), Optional.empty());

        assertThat(selection.hosts()).extracting(Host::name).containsExactly("r1", "r2");
        assertThat(selection.hosts()).extracting(Host::user).containsExactly(Optional.of("deploy"), Optional.of("ops"));
        assertThat(selection.inventory().hosts()).hasSize(3);
        assertThat(selection.limit()).contains("redis:!r3");
        assertThat(selection.firstSource()).contains(dir.resolve("hosts.ini"));
    }

    @Test
    void aNegatedTermMatchingNothingIsWarnedAboutAndEveryHostIsSelected() throws IOException {
        HostSelection selection =
                service(Map.of()).load(hosts("[redis]\nr1\nr2\n"), Optional.of("all:!typo"), Optional.empty());

        assertThat(selection.hosts()).extracting(Host::name).containsExactly("r1", "r2");
        assertThat(warnings).singleElement().asString().contains("typo");
    }

    @Test
    void withoutASourceTheHostIsTheImplicitLocalhost() {
        HostSelection selection = service(Map.of()).load(emptyInput(), Optional.empty(), Optional.empty());

        assertThat(selection.hosts()).extracting(Host::name).containsExactly("localhost");
        assertThat(selection.sources()).isEmpty();
    }

    @Test
    void ansibleCfgsInventoryAndSshArgsApplyAndWhatIsLeftOutIsNoted() throws IOException {
        Files.writeString(dir.resolve("hosts.ini"), "[redis]\nr1\n");
        Path cfg = Files.writeString(
                dir.resolve("ansible.cfg"),
                "[defaults]\ninventory = " + dir.resolve("hosts.ini") + "\n"
                        + "[ssh_connection]\nssh_args = -J ops@bastion -o ForwardAgent=yes\n");

        HostSelection selection = service(Map.of("ANSIBLE_CONFIG", cfg.toString()))
                .load(emptyInput(), Optional.empty(), Optional.empty());

        assertThat(selection.hosts()).singleElement().satisfies(h -> assertThat(h.jump())
                .contains("ops@bastion"));
        // -i was not given: the journal records no source, as before
        assertThat(selection.sources()).isEmpty();
        assertThat(notes).singleElement().asString().contains("fleetfix does not apply -o ForwardAgent=yes");
    }

    @Test
    void aBecomeUserOtherThanRootIsRefusedBeforeAnyHostIsSelected() throws IOException {
        InventoryInput input = hosts("[redis]\nr1\n").withBecomeUser(Optional.of("redis"));

        assertThatThrownBy(() -> service(Map.of()).load(input, Optional.empty(), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("--become-user redis: fleetfix becomes only root");
    }

    @Test
    void inventoryFromAnsibleNeedsASource() {
        InventoryInput input = emptyInput().withFromAnsible(true);

        assertThatThrownBy(() -> service(Map.of()).load(input, Optional.empty(), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessage("--inventory-from-ansible needs -i SOURCE");
    }
}
