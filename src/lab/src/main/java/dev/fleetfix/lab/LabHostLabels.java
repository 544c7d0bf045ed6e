package dev.fleetfix.lab;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * A lab host as its container's labels describe it: written when the container is created, read back by
 * {@code LabFleet.attach} in a later JVM ({@code lab status}, {@code lab reboot}).
 */
final class LabHostLabels {
    private LabHostLabels() {}

    static Map<String, String> of(String labId, Path labDir, int index, LabHost host) {
        Map<String, String> labels = new HashMap<>();
        labels.put(LabDocker.LABEL_LAB, labId);
        labels.put(LabDocker.LABEL_HOST, host.name());
        labels.put(LabDocker.LABEL_INDEX, Integer.toString(index));
        labels.put(LabDocker.LABEL_ADDRESS, host.address());
        labels.put(LabDocker.LABEL_SSH_PORT, Integer.toString(host.sshPort()));
        labels.put(LabDocker.LABEL_REDIS_PORT, Integer.toString(host.redisPort()));
        labels.put(LabDocker.LABEL_DIR, labDir.toString());
        labels.put(
                LabDocker.LABEL_REDIS_PORTS,
                String.join(",", host.redisPorts().stream().map(String::valueOf).toList()));
        labels.put(LabDocker.LABEL_SERVER, host.server().name());
        labels.put(LabDocker.LABEL_INIT, host.init().name());
        labels.put(LabDocker.LABEL_SHAPE, host.shape().name());
        host.sentinelPort().ifPresent(port -> labels.put(LabDocker.LABEL_SENTINEL_PORT, Integer.toString(port)));
        return labels;
    }

    /** The loopback addresses a lab container claims: its host's, or every address of a scale lab. */
    static List<String> addresses(Map<String, String> labels) {
        List<String> addresses = new ArrayList<>();
        Optional.ofNullable(labels.get(LabDocker.LABEL_ADDRESS)).ifPresent(addresses::add);
        Optional.ofNullable(labels.get(LabDocker.LABEL_ADDRESSES))
                .ifPresent(all -> addresses.addAll(List.of(all.split(","))));
        return addresses;
    }

    /** The host the labels describe; labs started by an older fleetfix lack the newer labels. */
    static LabHost host(Map<String, String> labels) {
        String redisPort = labels.getOrDefault(LabDocker.LABEL_REDIS_PORT, "6379");
        List<Integer> redisPorts = Stream.of(labels.getOrDefault(LabDocker.LABEL_REDIS_PORTS, redisPort)
                        .split(","))
                .map(Integer::parseInt)
                .toList();
        return new LabHost(
                labels.get(LabDocker.LABEL_HOST),
                labels.get(LabDocker.LABEL_ADDRESS),
                Integer.parseInt(labels.getOrDefault(LabDocker.LABEL_SSH_PORT, "22")),
                Integer.parseInt(redisPort),
                Optional.ofNullable(labels.get(LabDocker.LABEL_SENTINEL_PORT))
                        .map(port -> OptionalInt.of(Integer.parseInt(port)))
                        .orElse(OptionalInt.empty()),
                redisPorts,
                LabServer.valueOf(labels.getOrDefault(LabDocker.LABEL_SERVER, LabServer.REDIS_7_0.name())),
                LabInit.valueOf(labels.getOrDefault(LabDocker.LABEL_INIT, LabInit.SYSTEMD.name())),
                LabServiceShape.valueOf(
                        labels.getOrDefault(LabDocker.LABEL_SHAPE, LabServiceShape.DEBIAN_UNIT.name())));
    }
}
