package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab's SSH CA as ssh-keygen itself reads what it made: certificates, known_hosts, the sshd drop-in. */
class LabSshCaTest {
    @TempDir
    Path lab;

    private LabHost host(String name, String address, int sshPort) {
        SshKeys.generate(new LabHostFiles(lab, name).etc().resolve("ssh_host_ed25519_key"), "root@" + name);
        return new LabHost(name, address, sshPort, 6379);
    }

    private static String keygen(String... args) throws Exception {
        Process p = new ProcessBuilder(
                        Stream.concat(Stream.of("ssh-keygen"), Stream.of(args)).toList())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void theHostsKeysAndTheUsersKeyAreCertifiedAndOnlyTheCaIsTrusted() throws Exception {
        List<LabHost> hosts = List.of(host("ssh-cert-1", "127.0.0.21", 22), host("ssh-cert-2", "127.0.0.22", 2222));

        Map<String, Map<String, Object>> vars = LabSshCa.trust(lab, "ab12cd34", "fleetfix", hosts);

        Path ca = LabSshCa.dir(lab);
        assertThat(vars.get("ssh-cert-2"))
                .containsEntry(
                        "ansible_ssh_private_key_file", ca.resolve("id_ed25519").toString())
                .containsEntry("known_hosts_file", ca.resolve("known_hosts").toString());
        String hostCa = SshKeys.typeAndKey(Files.readString(ca.resolve("host_ca.pub")));
        assertThat(Files.readAllLines(ca.resolve("known_hosts")))
                .containsExactly("@cert-authority 127.0.0.21,[127.0.0.22]:2222 " + hostCa);
        assertThat(keygen("-L", "-f", ca.resolve("id_ed25519-cert.pub").toString()))
                .contains("ssh-ed25519-cert-v01@openssh.com user certificate")
                .containsPattern("Principals: \\n\\s+fleetfix\\n");

        Path root = new LabHostFiles(lab, "ssh-cert-2").etc().resolve("files");
        assertThat(keygen(
                        "-L",
                        "-f",
                        root.resolve("etc/ssh/ssh_host_ed25519_key-cert.pub").toString()))
                .contains("host certificate")
                .containsPattern("Principals: \\n\\s+ssh-cert-2\\n\\s+127.0.0.22\\n");
        assertThat(Files.readString(root.resolve("etc/ssh/sshd_config.d/05-fleetfix-lab-ca.conf")))
                .contains("HostCertificate /etc/ssh/ssh_host_ed25519_key-cert.pub\n")
                .contains("TrustedUserCAKeys /etc/ssh/fleetfix_lab_user_ca.pub\n");
        assertThat(Files.readString(root.resolve("etc/ssh/fleetfix_lab_user_ca.pub")))
                .isEqualTo(Files.readString(ca.resolve("user_ca.pub")));
        // ssh-keygen finds the host's certificate through the known_hosts line, as ssh would
        assertThat(keygen(
                        "-F",
                        "[127.0.0.22]:2222",
                        "-f",
                        ca.resolve("known_hosts").toString()))
                .contains("@cert-authority");
    }

    @Test
    void aLabWithoutSuchHostsMakesNoCa() {
        assertThat(LabSshCa.trust(lab, "ab12cd34", "fleetfix", List.of())).isEmpty();
        assertThat(LabSshCa.dir(lab)).doesNotExist();
    }
}
