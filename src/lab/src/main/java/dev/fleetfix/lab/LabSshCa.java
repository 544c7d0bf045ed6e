package dev.fleetfix.lab;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The lab's SSH certificate authority, made at {@code lab up} for the hosts of the {@code ssh-cert} preset, as large
 * fleets trust their hosts: a host CA signs each host's key (sshd's {@code HostCertificate}), a user CA signs the lab
 * user's key (sshd's {@code TrustedUserCAKeys}), and the inventory of those hosts gives a known_hosts holding only a
 * {@code @cert-authority} line and the user key with its {@code -cert.pub}. No plain key is trusted either way: the
 * hosts' keys are in no known_hosts, the user key in no authorized_keys.
 *
 * <pre>
 * ssh-ca/host_ca, user_ca        the CA keys (kept, to sign again: an expired or a revoked certificate)
 * ssh-ca/id_ed25519, -cert.pub   the user key of those hosts and its certificate (principal: the lab user)
 * ssh-ca/known_hosts             one line: @cert-authority HOSTS HOST-CA-KEY
 * </pre>
 */
final class LabSshCa {
    /** How long the lab's certificates are valid: from a moment ago, as long as a lab may well live. */
    static final String VALIDITY = "-5m:+52w";

    static final String USER_CA_ON_HOST = "/etc/ssh/fleetfix_lab_user_ca.pub";
    static final String HOST_CERT_ON_HOST = "/etc/ssh/ssh_host_ed25519_key-cert.pub";
    static final String SSHD_DROP_IN = "/etc/ssh/sshd_config.d/05-fleetfix-lab-ca.conf";

    private LabSshCa() {}

    static Path dir(Path labDir) {
        return labDir.resolve("ssh-ca");
    }

    static Path userKey(Path labDir) {
        return dir(labDir).resolve("id_ed25519");
    }

    static Path knownHosts(Path labDir) {
        return dir(labDir).resolve("known_hosts");
    }

    /**
     * Makes the CA and certifies {@code hosts} (whose host keys are in their lab files, not yet booted) and the lab
     * user; returns the inventory variables of each host: its key file and its known_hosts. Nothing when there are
     * no such hosts.
     */
    static Map<String, Map<String, Object>> trust(Path labDir, String labId, String user, List<LabHost> hosts) {
        Map<String, Map<String, Object>> vars = new LinkedHashMap<>();
        if (hosts.isEmpty()) {
            return vars;
        }
        Path ca = dir(labDir);
        String hostCa = SshKeys.generate(ca.resolve("host_ca"), "host-ca@fleetfix-lab-" + labId);
        SshKeys.generate(ca.resolve("user_ca"), "user-ca@fleetfix-lab-" + labId);
        SshKeys.generate(userKey(labDir), user + "@fleetfix-lab-" + labId);
        SshKeys.sign(
                ca.resolve("user_ca"),
                SshKeys.publicKey(userKey(labDir)),
                user + "@fleetfix-lab-" + labId,
                false,
                user,
                VALIDITY);
        String userCa = LabHostFiles.read(SshKeys.publicKey(ca.resolve("user_ca")));
        for (LabHost host : hosts) {
            certifyHost(ca, labId, host, new LabHostFiles(labDir, host.name()), userCa);
            Map<String, Object> own = new LinkedHashMap<>();
            own.put("ansible_ssh_private_key_file", userKey(labDir).toString());
            own.put("known_hosts_file", knownHosts(labDir).toString());
            vars.put(host.name(), own);
        }
        LabHostFiles.write(
                knownHosts(labDir),
                "@cert-authority "
                        + hosts.stream().map(LabSshCa::entry).collect(Collectors.joining(","))
                        + " " + SshKeys.typeAndKey(hostCa) + "\n");
        return vars;
    }

    /** How known_hosts names a host: {@code 127.0.0.11}, or {@code [127.0.0.11]:2222} off port 22. */
    static String entry(LabHost host) {
        return host.sshPort() == 22 ? host.address() : "[" + host.address() + "]:" + host.sshPort();
    }

    /**
     * Signs the host's key for its name and address, and lays out what its first boot copies over {@code /}: the
     * certificate, the user CA's key and the sshd drop-in that names both.
     */
    private static void certifyHost(Path ca, String labId, LabHost host, LabHostFiles files, String userCa) {
        Path cert = SshKeys.sign(
                ca.resolve("host_ca"),
                files.etc().resolve("ssh_host_ed25519_key.pub"),
                host.name() + "@fleetfix-lab-" + labId,
                true,
                host.name() + "," + host.address(),
                VALIDITY);
        Path root = files.etc().resolve("files");
        LabHostFiles.write(under(root, HOST_CERT_ON_HOST), LabHostFiles.read(cert));
        LabHostFiles.write(under(root, USER_CA_ON_HOST), userCa);
        LabHostFiles.write(
                under(root, SSHD_DROP_IN),
                """
                # fleetfix lab (ssh-cert): this host presents a certificate of the lab's host CA, and lets in
                # users whose key the lab's user CA certified; no authorized_keys holds a plain key for it.
                HostCertificate %s
                TrustedUserCAKeys %s
                """
                        .formatted(HOST_CERT_ON_HOST, USER_CA_ON_HOST));
    }

    private static Path under(Path root, String absolute) {
        return root.resolve(absolute.substring(1));
    }
}
