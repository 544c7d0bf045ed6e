package dev.fleetfix.lab;

import dev.fleetfix.report.AnsibleYaml;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The Ansible YAML inventory a lab writes for its fleet: what {@code fleetfix -i} and {@code ansible -i} read. Every
 * host is in group {@code redis}; hosts that run a Sentinel are in group {@code sentinel} too, with
 * {@code sentinel_port}. A Valkey host names its service ({@code redis_service: valkey-server}); a host with several
 * Redis instances lists them under {@code redis_instances}, each with its port, unit and config file. Written by
 * {@link AnsibleYaml}, the writer of {@code fleetfix inventory --list --yaml}: a string YAML 1.1 would read as
 * something else (a password of digits, an address, a path) is quoted.
 */
final class LabInventory {
    private LabInventory() {}

    static Path file(Path labDir) {
        return labDir.resolve("inventory.yml");
    }

    static Path knownHostsFile(Path labDir) {
        return labDir.resolve("known_hosts");
    }

    /** Writes the inventory of the lab in {@code labDir}, as {@link #yaml} makes it. */
    static void write(
            Path labDir,
            List<LabHost> hosts,
            Map<String, Path> passwordFiles,
            Set<String> unnamed,
            Map<String, Map<String, Object>> become) {
        Path key = LabBuilder.privateKey(labDir);
        String text = yaml(LabBuilder.USER, key, knownHostsFile(labDir), hosts, passwordFiles, unnamed, become);
        LabHostFiles.write(file(labDir), text);
    }

    /** Writes the lab's known_hosts: a line for each of {@code hosts}, with its public host key. */
    static void writeKnownHosts(Path labDir, List<LabHost> hosts, Function<LabHost, String> hostKey) {
        StringBuilder lines = new StringBuilder();
        for (LabHost h : hosts) {
            lines.append(h.sshPort() == 22 ? h.address() : "[" + h.address() + "]:" + h.sshPort())
                    .append(' ')
                    .append(SshKeys.typeAndKey(hostKey.apply(h)))
                    .append('\n');
        }
        LabHostFiles.write(knownHostsFile(labDir), lines.toString());
    }

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
        return yaml(user, privateKey, knownHosts, hosts, passwordFiles, unnamed, Map.of());
    }

    /**
     * As above; a host in {@code become} has those variables too (its login user and become method, or its key file
     * and known_hosts when it is trusted through the lab's SSH CA).
     */
    static String yaml(
            String user,
            Path privateKey,
            Path knownHosts,
            List<LabHost> hosts,
            Map<String, Path> passwordFiles,
            Set<String> unnamed,
            Map<String, Map<String, Object>> become) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("ansible_user", user);
        vars.put("ansible_ssh_private_key_file", privateKey.toString());
        vars.put("ansible_become", true);
        vars.put("known_hosts_file", knownHosts.toString());
        Map<String, Object> redis = new LinkedHashMap<>();
        for (LabHost host : hosts) {
            Map<String, Object> own = hostVars(host, passwordFiles, unnamed.contains(host.name()));
            own.putAll(become.getOrDefault(host.name(), Map.of()));
            redis.put(host.name(), own);
        }
        Map<String, Object> children = new LinkedHashMap<>();
        children.put("redis", Map.of("hosts", redis));
        Map<String, Object> sentinels = new LinkedHashMap<>();
        hosts.stream()
                .filter(h -> h.sentinelPort().isPresent())
                .forEach(h -> sentinels.put(
                        h.name(), Map.of("sentinel_port", h.sentinelPort().getAsInt())));
        if (!sentinels.isEmpty()) {
            children.put("sentinel", Map.of("hosts", sentinels));
        }
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("vars", vars);
        all.put("children", children);
        return "# fleetfix lab inventory: removed with the lab (fleetfix lab down)\n"
                + AnsibleYaml.write(Map.of("all", all));
    }

    /**
     * The login and become of a host whose sudo or su asks for a password: user {@value LabHostSpec#OPS}, and su when
     * only root has one. The password itself is in the host's vaulted variables ({@link LabVault}), never here.
     */
    static Optional<Map<String, Object>> become(LabHostSpec spec) {
        if (spec.sudoPassword().isEmpty() && spec.rootPassword().isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("ansible_user", LabHostSpec.OPS);
        if (spec.sudoPassword().isEmpty()) {
            vars.put("ansible_become_method", "su");
        }
        return Optional.of(vars);
    }

    private static Map<String, Object> hostVars(LabHost host, Map<String, Path> passwordFiles, boolean unnamed) {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("ansible_host", host.address());
        vars.put("ansible_port", host.sshPort());
        vars.put("redis_port", host.redisPort());
        if (host.redisPorts().size() > 1) {
            List<Map<String, Object>> instances = new ArrayList<>();
            for (int i = 0; i < host.redisPorts().size(); i++) {
                int port = host.redisPorts().get(i);
                Map<String, Object> instance = new LinkedHashMap<>();
                instance.put("port", port);
                if (!unnamed) {
                    instance.put("service", host.services().get(i));
                    instance.put("config", LabHostSetup.instanceConfig(host.server(), port));
                }
                instances.add(instance);
            }
            vars.put("redis_instances", instances);
        } else if (!unnamed && !host.services().get(0).equals(LabServer.REDIS_7_0.service())) {
            vars.put("redis_service", host.services().get(0));
        }
        Optional.ofNullable(passwordFiles.get(host.name()))
                .ifPresent(file -> vars.put("redis_password_file", file.toString()));
        return vars;
    }
}
