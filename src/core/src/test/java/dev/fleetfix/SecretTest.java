package dev.fleetfix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a secret becomes known to every output's scrubber: by what it is, and for a vaulted file's value, by its use. */
class SecretTest {

    @Test
    void aSecretIsScrubbedFromTheMomentItIsMade() {
        Secret secret = Secret.of("made-7c2e91");

        assertThat(KnownSecrets.scrub("said made-7c2e91")).isEqualTo("said ******");
        assertThat(secret).hasToString("******");
    }

    @Test
    void aValueOfAVaultedFileIsScrubbedOnlyOnceUsedAsASecret() {
        Secret port = Secret.ofVaultedFile("16391");
        Secret password = Secret.ofVaultedFile("vaultfile-5d0b7a");

        assertThat(port).hasToString("******");
        assertThat(KnownSecrets.scrub("10.0.0.1:16391 vaultfile-5d0b7a")).isEqualTo("10.0.0.1:16391 vaultfile-5d0b7a");

        assertThat(port.revealAsSetting()).isEqualTo("16391");
        assertThat(password.reveal()).isEqualTo("vaultfile-5d0b7a");

        // the port is printed where it is used, as Ansible prints it; the password never is
        assertThat(KnownSecrets.scrub("10.0.0.1:16391 vaultfile-5d0b7a")).isEqualTo("10.0.0.1:16391 ******");
    }

    @Test
    void anInlineVaultValueStaysASecretWhateverItsUse() {
        Secret user = Secret.vaulted("$ANSIBLE_VAULT;1.1;AES256\n6162", () -> "inline-user-3f0a");

        assertThat(KnownSecrets.scrub("ssh inline-user-3f0a@r1")).isEqualTo("ssh inline-user-3f0a@r1");
        assertThat(user.revealAsSetting()).isEqualTo("inline-user-3f0a");
        assertThat(KnownSecrets.scrub("ssh inline-user-3f0a@r1")).isEqualTo("ssh ******@r1");
    }
}
