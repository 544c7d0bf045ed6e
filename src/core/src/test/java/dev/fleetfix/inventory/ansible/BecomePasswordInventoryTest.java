package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.ansible.vault.VaultException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a host's become password and method come from: ansible_become_password or ansible_become_pass (plain,
 * vaulted, -e), -K for hosts that set none, ansible_become_method (sudo, su; others refused at their place).
 */
class BecomePasswordInventoryTest {
    @TempDir
    Path dir;

    private final List<String> messages = new ArrayList<>();

    private Host host(String yaml, InventoryInput input, Map<String, String> env) throws IOException {
        Path file = Files.writeString(dir.resolve("hosts.yml"), yaml);
        return new InventoryService(
                        new AnsibleEnvironment(env, dir, dir, true),
                        new InventoryService.Messages(messages::add, messages::add, messages::add))
                .load(
                        InventoryInputBuilder.builder(input)
                                .sources(List.of(file))
                                .build(),
                        Optional.empty(),
                        Optional.empty())
                .hosts()
                .get(0);
    }

    private Host host(String yaml) throws IOException {
        return host(yaml, input(), Map.of());
    }

    private static InventoryInput input() {
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
    void thePasswordIsASecretOfTheHostAndSudoStaysTheMethod() throws IOException {
        Host r1 =
                host("all:\n  hosts:\n    r1:\n      ansible_become: true\n      ansible_become_pass: pw-of-r1-3c9e\n");

        assertThat(r1.becomePassword().map(Secret::reveal)).contains("pw-of-r1-3c9e");
        assertThat(r1.becomeMethod()).isEqualTo(BecomeMethod.SUDO);
        assertThat(r1.vars().get("ansible_become_pass")).hasToString("******");
        assertThat(r1.requireUsable()).isSameAs(r1);
    }

    @Test
    void anInlineVaultedPasswordIsDecryptedOnlyWhenARunNeedsIt() throws IOException {
        String envelope = "$ANSIBLE_VAULT;1.1;AES256\n"
                + "62313365396662343061393464336163383764373764613633653634306231386433626436623361\n"
                + "6134333665353966363534333632666535333761666131620a663537646436643839616234656132\n"
                + "32316362356664333761636232303263363066653130613561613261633763613765306235386436\n"
                + "6665363661366538310a373562303335356133306435646437646333343366623636336361323435\n"
                + "3531\n";
        Host r1 = host("all:\n  hosts:\n    r1:\n      ansible_become: true\n      ansible_become_password: !vault |\n"
                + envelope.lines().map(l -> "        " + l + "\n").reduce("", String::concat));

        assertThat(r1.becomePassword())
                .hasValueSatisfying(p -> assertThat(p.envelope()).contains(envelope));
        assertThatThrownBy(r1::requireUsable)
                .isInstanceOf(VaultException.class)
                .hasMessageContaining("hosts.yml:5: this is encrypted with ansible-vault and no vault password");
    }

    @Test
    void extraVarsWinAndTheAskedPasswordFillsOnlyHostsThatSetNone() throws IOException {
        String yaml =
                "all:\n  vars:\n    ansible_become: true\n  hosts:\n    r1:\n      ansible_become_password: inventory-pw-7d21\n";
        InventoryInput asked = InventoryInputBuilder.builder(input())
                .becomePassword(Optional.of(Secret.of("asked-pw-51aa")))
                .build();

        assertThat(host(yaml, asked, Map.of()).becomePassword().map(Secret::reveal))
                .contains("inventory-pw-7d21");
        assertThat(host(yaml.replace("      ansible_become_password: inventory-pw-7d21\n", ""), asked, Map.of())
                        .becomePassword()
                        .map(Secret::reveal))
                .contains("asked-pw-51aa");
        InventoryInput extra = InventoryInputBuilder.builder(input())
                .extraVars(List.of("ansible_become_password=extra-vars-pw-90b4"))
                .build();
        assertThat(host(yaml, extra, Map.of()).becomePassword().map(Secret::reveal))
                .contains("extra-vars-pw-90b4");
    }

    @Test
    void suIsAMethodAndNeedsAPasswordUnlessTheLoginIsRoot() throws IOException {
        Host withPassword = host("all:\n  hosts:\n    r1:\n      ansible_become: yes\n      ansible_become_method: su\n"
                + "      ansible_become_password: root-pw-e6f0\n");
        Host without = host("all:\n  hosts:\n    r1:\n      ansible_become: yes\n      ansible_become_method: su\n");

        assertThat(withPassword.becomeMethod()).isEqualTo(BecomeMethod.SU);
        assertThat(withPassword.requireUsable()).isSameAs(withPassword);
        assertThatThrownBy(without::requireUsable)
                .isInstanceOf(InputException.class)
                .hasMessage("host r1: ansible_become_method is su, which asks for root's password: set"
                        + " ansible_become_password (a vaulted value, or -e) or give -K");
    }

    @Test
    void anotherMethodIsListedAsAnsibleListsItAndRefusedAtItsPlaceByARun() throws IOException {
        Host r1 = host("all:\n  hosts:\n    r1:\n      ansible_become_method: doas\n");

        assertThat(r1.vars()).containsEntry("ansible_become_method", "doas");
        assertThatThrownBy(r1::requireUsable)
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith(
                        "hosts.yml:4:30: host r1: ansible_become_method is doas; fleetfix becomes root with sudo or su"
                                + " only");
    }

    @Test
    void ansibleCfgMayNameSuForHostsThatSetNoMethod() throws IOException {
        Path cfg = Files.writeString(
                dir.resolve("ansible.cfg"), "[privilege_escalation]\nbecome = true\nbecome_method = su\n");

        Host r1 = host(
                "all:\n  hosts:\n    r1:\n      ansible_become_password: cfg-su-pw-2b7c\n",
                input(),
                Map.of("ANSIBLE_CONFIG", cfg.toString()));

        assertThat(r1.become()).isTrue();
        assertThat(r1.becomeMethod()).isEqualTo(BecomeMethod.SU);
    }
}
