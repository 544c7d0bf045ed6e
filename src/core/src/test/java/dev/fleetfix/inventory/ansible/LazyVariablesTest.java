package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import dev.fleetfix.inventory.ansible.vault.VaultKeyring;
import dev.fleetfix.inventory.ansible.vault.VaultPasswordSource;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Variables are templated, decrypted and checked when something uses them, as in Ansible: the fixture {@code
 * inventory/lazy} is an inventory shared with Ansible, with templates fleetfix never uses and a vault-encrypted
 * group_vars file (made with ansible-vault).
 */
class LazyVariablesTest {
    @TempDir
    Path dir;

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(
                LazyVariablesTest.class.getResource("/inventory/lazy/" + name).toURI());
    }

    private static Inventory load(VaultKeyring keyring) throws URISyntaxException {
        return InventorySources.load(fixture("hosts.yml").toString(), Optional.empty(), keyring)
                .inventory();
    }

    private static VaultKeyring password() throws URISyntaxException {
        return new VaultKeyring(
                List.of(new VaultPasswordSource("default", fixture("vault-password"), "--vault-password-file")));
    }

    @Test
    void withoutAVaultPasswordTheHostsAndGroupsAreReadAndARunRefusesNamingTheFile() throws Exception {
        Inventory inventory = load(VaultKeyring.none());

        assertThat(inventory.hosts()).extracting(Host::name).containsExactly("r1", "r2", "w1");
        assertThat(HostPattern.parse("redis:!r2").select(inventory, w -> {}))
                .extracting(Host::name)
                .containsExactly("r1");
        Host r1 = inventory.host("r1").orElseThrow();
        String noPassword = fixture("group_vars/redis.yml")
                + ":1: this is encrypted with ansible-vault and no vault password was given";
        assertThatThrownBy(r1::requireUsable).isInstanceOf(VaultException.class).hasMessageStartingWith(noPassword);
        // what prints its variables needs them, as ansible-inventory --host does
        assertThatThrownBy(r1::printableVars).hasMessageStartingWith(noPassword);
        // a host the file does not apply to is untouched by it
        Host w1 = inventory.host("w1").orElseThrow();
        assertThat(w1.requireUsable().printableVars())
                .containsOnlyKeys("ansible_python_interpreter")
                .extractingByKey("ansible_python_interpreter")
                .hasToString("{{ ansible_playbook_python }}");
    }

    @Test
    void withThePasswordEveryValueOfTheVaultedFileIsASecretThatStillWorks() throws Exception {
        Inventory inventory = load(password());

        Host r1 = inventory.host("r1").orElseThrow().requireUsable();
        assertThat(r1.redis().port()).isEqualTo(6390);
        assertThat(r1.redis().auth().password().map(Secret::reveal)).contains("s3cret-from-file");
        // masked like an inline !vault value, whatever its name; a list keeps its shape, its items masked
        assertThat(r1.printableVars().get("role"))
                .isEqualTo(Secret.of("primary"))
                .hasToString("******");
        assertThat(r1.printableVars().get("redis_port")).hasToString("******");
        assertThat(r1.printableVars().get("replicas")).isEqualTo(List.of(Secret.of("r2")));
        // the host whose address cannot be evaluated is refused by place, only when used
        Host r2 = inventory.host("r2").orElseThrow();
        assertThatThrownBy(r2::requireUsable)
                .isInstanceOf(InputException.class)
                .hasMessage(fixture("hosts.yml") + ":10:28: host r2: ansible_host: only plain variable names are"
                        + " supported in '{{ inventory_hostname | upper }}'");
    }

    @Test
    void aWrongPasswordIsDeferredToTheRunThatNeedsTheFile() throws Exception {
        Path wrong = Files.writeString(dir.resolve("wrong"), "not-the-password\n");
        Inventory inventory =
                load(new VaultKeyring(List.of(new VaultPasswordSource("default", wrong, "--vault-password-file"))));

        assertThat(inventory.hosts()).hasSize(3);
        assertThatThrownBy(() -> inventory.host("r1").orElseThrow().requireUsable())
                .isInstanceOf(VaultException.class)
                .hasMessageContaining("does not decrypt")
                .hasMessageContaining(fixture("group_vars/redis.yml").toString());
    }

    @Test
    void anInlineVaultedValueIsDecryptedOnlyWhenARunRevealsIt() throws IOException {
        String envelope = "$ANSIBLE_VAULT;1.1;AES256\n"
                + "62313365396662343061393464336163383764373764613633653634306231386433626436623361\n"
                + "6134333665353966363534333632666535333761666131620a663537646436643839616234656132\n"
                + "32316362356664333761636232303263363066653130613561613261633763613765306235386436\n"
                + "6665363661366538310a373562303335356133306435646437646333343366623636336361323435\n"
                + "3531\n";
        Path file = Files.writeString(
                dir.resolve("hosts.yml"),
                "all:\n  hosts:\n    r1:\n      redis_password: !vault |\n"
                        + envelope.lines().map(l -> "        " + l + "\n").reduce("", String::concat));

        Host r1 = InventorySources.load(file.toString(), Optional.empty(), VaultKeyring.none())
                .inventory()
                .host("r1")
                .orElseThrow();

        // listed as ansible-inventory lists it without a password: the ciphertext
        Secret password = (Secret) r1.printableVars().get("redis_password");
        assertThat(password.envelope()).contains(envelope);
        assertThatThrownBy(r1::requireUsable)
                .isInstanceOf(VaultException.class)
                .hasMessageStartingWith(file + ":4: this is encrypted with ansible-vault and no vault password");
    }

    @Test
    void anExtraVarsFileVaultEncryptedGivesSecrets() throws Exception {
        Path vars = Files.copy(fixture("group_vars/redis.yml"), dir.resolve("extra.yml"));

        ExtraVars extra = ExtraVars.parse(List.of("@" + vars), w -> {}, password());

        assertThat(extra.values().get("role")).isEqualTo(Secret.of("primary"));
        assertThat(extra.values().get("redis_password")).hasToString("******");
    }
}
