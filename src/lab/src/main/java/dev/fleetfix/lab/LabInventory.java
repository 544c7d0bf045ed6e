package dev.fleetfix.lab;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Ansible YAML inventory a lab writes for its fleet: what {@code fleetfix -i} and {@code ansible -i} read. Every
 * host is in group {@code redis}; hosts that run a Sentinel are in group {@code sentinel} too, with
 * {@code sentinel_port}. A Valkey host names its service ({@code redis_service: valkey-server}); a host with several
 * Redis instances lists them under {@code redis_instances}, each with its port, unit and config file.
 */
final class LabInventory {
    private LabInventory() {}

    static String yaml(
            String user, Path privateKey, Path knownHosts, List<LabHost> hosts, Map<String, Path> passwordFiles) {
        return yaml(user, privateKey, knownHosts, hosts, passwordFiles, Set.of());
    }

    /** As above; the hosts in {@code unnamed} get no service or config file in the inventory. */
    static String yaml(
            String user,
            Path privateKey,
            Path knownHosts,
            List<LabHost> hosts,
            Map<String, Path> passwordFiles,
            Set<String> unnamed) {
        StringBuilder yaml = new StringBuilder();
        yaml.append("# fleetfix lab inventory: removed with the lab (fleetfix lab down)\n");
        yaml.append("all:\n");
        yaml.append("  vars:\n");
        yaml.append("    ansible_user: ").append(user).append('\n');
        yaml.append("    ansible_ssh_private_key_file: ")
                .append(quote(privateKey))
                .append('\n');
        yaml.append("    ansible_become: true\n");
        yaml.append("    known_hosts_file: ").append(quote(knownHosts)).append('\n');
        yaml.append("  children:\n");
        yaml.append("    redis:\n");
        yaml.append("      hosts:\n");
        for (LabHost host : hosts) {
            yaml.append("        ").append(host.name()).append(":\n");
            yaml.append("          ansible_host: ").append(host.address()).append('\n');
            yaml.append("          ansible_port: ").append(host.sshPort()).append('\n');
            yaml.append("          redis_port: ").append(host.redisPort()).append('\n');
            if (unnamed.contains(host.name())) {
                if (host.redisPorts().size() > 1) {
                    yaml.append("          redis_instances:\n");
                    host.redisPorts().forEach(port -> yaml.append("            - {port: ")
                            .append(port)
                            .append("}\n"));
                }
            } else if (host.redisPorts().size() > 1) {
                yaml.append("          redis_instances:\n");
                for (int i = 0; i < host.redisPorts().size(); i++) {
                    int port = host.redisPorts().get(i);
                    yaml.append("            - {port: ")
                            .append(port)
                            .append(", service: '")
                            .append(host.services().get(i))
                            .append("', config: '")
                            .append(LabHostSetup.instanceConfig(host.server(), port))
                            .append("'}\n");
                }
            } else if (!host.services().get(0).equals(LabServer.REDIS_7_0.service())) {
                yaml.append("          redis_service: ")
                        .append(host.services().get(0))
                        .append('\n');
            }
            Optional.ofNullable(passwordFiles.get(host.name()))
                    .ifPresent(file -> yaml.append("          redis_password_file: ")
                            .append(quote(file))
                            .append('\n'));
        }
        List<LabHost> sentinels =
                hosts.stream().filter(h -> h.sentinelPort().isPresent()).toList();
        if (!sentinels.isEmpty()) {
            yaml.append("    sentinel:\n");
            yaml.append("      hosts:\n");
            for (LabHost host : sentinels) {
                yaml.append("        ").append(host.name()).append(":\n");
                yaml.append("          sentinel_port: ")
                        .append(host.sentinelPort().getAsInt())
                        .append('\n');
            }
        }
        return yaml.toString();
    }

    /** Single-quoted YAML scalar: a path may hold spaces, colons or '#'. */
    private static String quote(Path path) {
        return "'" + path.toString().replace("'", "''") + "'";
    }
}
