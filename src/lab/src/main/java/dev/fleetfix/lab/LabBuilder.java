package dev.fleetfix.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Lays out a new lab: keys, per-host files, loopback addresses, containers (created, not started). Address choice
 * and container creation happen under a machine-wide lock, so labs started at once (parallel test JVMs) never
 * pick the same address: once created, a container's address label claims it.
 */
final class LabBuilder {
    static final String USER = "fleetfix";
    private static final String LOCK_FILE = "fleetfix-lab-addresses.lock";

    private final String id;
    private final Path dir;
    private final LabDocker docker;

    LabBuilder(String id, Path dir, LabDocker docker) {
        this.id = id;
        this.dir = dir;
        this.docker = docker;
    }

    /** Creates every host's container, on the image of its server's suite; returns container ids by host. */
    Map<LabHost, String> create(LabTopology topology, Map<LabImage.Suite, String> images) {
        List<LabHostSpec> specs = topology.specs();
        LabProperties.write(dir, id, USER);
        String userKey = SshKeys.generate(privateKey(dir), USER + "@fleetfix-lab-" + id);
        Map<String, String> hostKeys = new HashMap<>();
        for (LabHostSpec spec : specs) {
            LabHostFiles files = new LabHostFiles(dir, spec.name());
            hostKeys.put(
                    spec.name(), SshKeys.generate(files.etc().resolve("ssh_host_ed25519_key"), "root@" + spec.name()));
            // a host trusted through the lab's CA lets in the user's certificate only
            LabHostFiles.write(files.etc().resolve("authorized_keys"), spec.sshCertificates() ? "" : userKey + "\n");
            files.writeThp(spec);
            spec.requirepass().ifPresent(password -> LabHostFiles.write(files.passwordFile(), password + "\n"));
        }
        Map<LabHost, String> containers = underAddressLock(() -> createContainers(topology, images));
        List<LabHost> hosts = List.copyOf(containers.keySet());
        Set<String> certified = specs.stream()
                .filter(LabHostSpec::sshCertificates)
                .map(LabHostSpec::name)
                .collect(Collectors.toSet());
        Map<String, Map<String, Object>> caVars = LabSshCa.trust(
                dir,
                id,
                USER,
                hosts.stream().filter(h -> certified.contains(h.name())).toList());
        // their plain host keys are trusted nowhere: only the CA's line vouches for them
        LabInventory.writeKnownHosts(
                dir,
                hosts.stream().filter(h -> !certified.contains(h.name())).toList(),
                host -> hostKeys.get(host.name()));
        writeInventory(hosts, specs, caVars);
        return containers;
    }

    private Map<LabHost, String> createContainers(LabTopology topology, Map<LabImage.Suite, String> images) {
        List<LabHostSpec> specs = topology.specs();
        List<LoopbackAddresses.Endpoint> endpoints = LoopbackAddresses.pick(specs, docker.claimedAddresses());
        Map<String, LabHost> hostByName = new LinkedHashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            hostByName.put(specs.get(i).name(), endpoints.get(i).host(specs.get(i)));
        }
        Function<String, LabRedisConf.Primary> primaryOf = name -> new LabRedisConf.Primary(
                hostByName.get(name).address(),
                hostByName.get(name).redisPort(),
                topology.spec(name).requirepass());
        List<String> etcHosts = hostByName.values().stream()
                .map(host -> host.name() + ":" + host.address())
                .toList();
        Map<LabHost, String> containers = new LinkedHashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            LabHostSpec spec = specs.get(i);
            LabHost host = hostByName.get(spec.name());
            LabHostFiles files = new LabHostFiles(dir, spec.name());
            writeRedisConfs(topology, spec, host, files, primaryOf);
            LabHostSetup.write(spec, host, files);
            containers.put(host, createContainer(images.get(spec.server().suite()), i, spec, host, etcHosts));
        }
        return containers;
    }

    /** The host's Redis config file (and its Sentinel's, with the unit that runs it), as its shape places it. */
    private static void writeRedisConfs(
            LabTopology topology,
            LabHostSpec spec,
            LabHost host,
            LabHostFiles files,
            Function<String, LabRedisConf.Primary> primaryOf) {
        String redisConf = LabRedisConf.text(
                spec,
                host.address(),
                host.redisPort(),
                spec.replicaOf().map(primaryOf),
                !topology.replicasOf(spec.name()).isEmpty());
        String shaped = redisConf + LabOperatorShape.directives(spec, host.redisPort());
        if (spec.serviceShape() == LabServiceShape.DEBIAN_INSTANCE) {
            // the setup copies redis.conf to redis-main.conf with these directives; redis.conf itself is unused
            LabHostFiles.write(files.etc().resolve("instances").resolve(LabServiceShape.INSTANCE + ".conf"), shaped);
            LabHostFiles.write(files.etc().resolve("redis.conf"), redisConf);
        } else {
            LabHostFiles.write(files.etc().resolve("redis.conf"), shaped);
        }
        if (spec.sentinel()) {
            LabRedisConf.Primary monitored =
                    primaryOf.apply(topology.sentinelPrimary().orElseThrow());
            LabHostFiles.write(
                    files.etc().resolve("sentinel.conf"),
                    LabSentinelConf.text(
                            host.address(), host.sentinelPort().orElseThrow(), monitored, topology.quorum()));
            LabHostFiles.write(files.etc().resolve(LabSentinelConf.UNIT), LabSentinelConf.unit());
        }
    }

    private String createContainer(String image, int index, LabHostSpec spec, LabHost host, List<String> etcHosts) {
        LabHostFiles files = new LabHostFiles(dir, spec.name());
        LabHostFiles.write(files.etc().resolve("host.env"), LabHostSetup.env(id, spec, host));
        return docker.create(
                image,
                containerName(id, spec.name()),
                spec.name(),
                LabHostLabels.of(id, dir, index, host),
                spec.dockerCli()
                        ? List.of(
                                files.etcMount(),
                                files.thpMount(),
                                LabRedisContainer.socketMount(),
                                LabRedisContainer.cliMount())
                        : List.of(files.etcMount(), files.thpMount()),
                etcHosts,
                spec.init());
    }

    static String containerName(String id, String host) {
        return "fleetfix-lab-" + id + "-" + host;
    }

    static Path privateKey(Path dir) {
        return dir.resolve("id_ed25519");
    }

    /** The lab's inventory; a host in {@code own} has those variables too (its CA-certified login). */
    private void writeInventory(List<LabHost> hosts, List<LabHostSpec> specs, Map<String, Map<String, Object>> own) {
        Map<String, Path> passwordFiles = new HashMap<>();
        Set<String> unnamed = new HashSet<>();
        Map<String, Map<String, Object>> become = new HashMap<>(own);
        for (LabHostSpec spec : specs) {
            LabInventory.become(spec)
                    .ifPresent(vars -> become.merge(spec.name(), vars, (a, b) -> {
                        Map<String, Object> both = new LinkedHashMap<>(a);
                        both.putAll(b);
                        return both;
                    }));
            LabVault.secrets(spec).ifPresent(secrets -> LabVault.write(dir, spec.name(), secrets));
            if (!spec.serviceInInventory()) {
                unnamed.add(spec.name());
            }
            if (spec.requirepass().isPresent()) {
                passwordFiles.put(spec.name(), new LabHostFiles(dir, spec.name()).passwordFile());
            }
        }
        LabInventory.write(dir, hosts, passwordFiles, unnamed, become);
    }

    static synchronized <T> T underAddressLock(java.util.function.Supplier<T> action) {
        Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), LOCK_FILE);
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            // another user's lock file: go on; container labels still keep labs apart but for a narrow race
            return action.get();
        }
        try (channel;
                FileLock lock = channel.lock()) {
            return action.get();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + lockFile, e);
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
