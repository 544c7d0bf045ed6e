package dev.fleetfix.lab;

import com.github.dockerjava.api.model.Container;
import dev.fleetfix.Counts;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a lab comes up and goes away: its images, its hosts created and booted, their replication, cluster and
 * Sentinels settled; a lab of an earlier JVM found again; and everything it made removed. {@link LabFleet} is the
 * lab once it is up.
 */
final class LabBringUp {
    private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(60);

    private LabBringUp() {}

    /** A scale lab: its hosts in one container, sharing Redis processes. */
    static LabFleet scale(List<LabHostSpec> specs, LabSettings settings) {
        if (settings.realThp()) {
            throw new LabException("real THP is for full lab hosts, whose Redis is restarted under it; the scale"
                    + " preset's hosts share Redis processes and are never restarted");
        }
        LabDocker docker = LabDocker.connect();
        String id = newId();
        Path dir = settings.home().resolve(id);
        Map<LabHost, String> containers = LabScale.startLab(id, dir, docker, specs.size(), settings);
        return new LabFleet(id, dir, docker, containers, settings.outliveJvm());
    }

    /** The hosts, one container each, booted and settled as {@link LabFleet#start(List, LabSettings)} promises. */
    static LabFleet start(List<LabHostSpec> specs, LabSettings settings) {
        LabTopology topology = LabTopology.of(specs);
        LabDocker docker = LabDocker.connect();
        Map<LabImage.Suite, String> images = new EnumMap<>(LabImage.Suite.class);
        for (LabHostSpec spec : specs) {
            images.computeIfAbsent(
                    spec.server().suite(),
                    suite -> LabImage.ensure(docker, settings.home(), settings.progress(), suite));
        }
        String id = newId();
        Path dir = settings.home().resolve(id);
        LabFleet fleet = null;
        try {
            if (settings.realThp()) {
                // this machine's THP to always, before any container
                new LabKernelThp(LabKernelThp.KERNEL).setAlways(dir);
            }
            Map<LabHost, String> containers = new LabBuilder(id, dir, docker).create(topology, images);
            if (settings.realThp()) {
                // the real-THP launchers are read at first boot, so written before it
                containers
                        .keySet()
                        .forEach(host -> LabHostSetup.writeThpLauncher(
                                topology.spec(host.name()), host, new LabHostFiles(dir, host.name())));
            }
            fleet = new LabFleet(id, dir, docker, containers, settings.outliveJvm());
            settings.progress().accept("booting " + specs.size() + " lab hosts");
            new LabBoot(docker).bootAll(containers);
            settle(fleet, topology, settings);
            return fleet;
        } catch (RuntimeException e) {
            if (fleet != null) {
                fleet.close();
            } else {
                tearDown(docker, id, dir);
            }
            throw e;
        }
    }

    /** A new lab's id: 8 hex digits, its directory's name and its containers' label. */
    private static String newId() {
        return HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
    }

    /** The lab whose directory is {@code dir}, found again by its containers' labels. */
    static LabFleet attach(Path dir) {
        Path labDir = dir.toAbsolutePath().normalize();
        LabProperties properties = LabProperties.read(labDir);
        LabDocker docker = LabDocker.connect();
        List<Container> found = new ArrayList<>(docker.withLabel(LabDocker.LABEL_LAB, properties.id()));
        found.sort(
                Comparator.comparingInt(c -> Integer.parseInt(c.getLabels().getOrDefault(LabDocker.LABEL_INDEX, "0"))));
        Map<LabHost, String> containers = new LinkedHashMap<>();
        for (Container container : found) {
            if (LabInit.NONE.name().equals(container.getLabels().get(LabDocker.LABEL_INIT))) {
                LabScale.hosts(labDir).forEach(host -> containers.put(host, container.getId()));
            } else {
                containers.put(LabHostLabels.host(container.getLabels()), container.getId());
            }
        }
        return new LabFleet(properties.id(), labDir, docker, containers, true);
    }

    /** Replication links up, the cluster formed, the Sentinels started: what {@link LabFleet#start} promises. */
    private static void settle(LabFleet fleet, LabTopology topology, LabSettings settings) {
        // sshd and Redis answer before systemd has finished booting the rest: a benchmark of the first host
        // would share this machine with the other hosts' boots (at most a minute each; degraded is done too)
        for (LabHost host : fleet.hosts()) {
            if (host.init() == LabInit.SYSTEMD) {
                fleet.rootExec(host.name(), "timeout 60 systemctl is-system-running --wait >/dev/null 2>&1; true");
            }
        }
        for (LabHostSpec spec : topology.specs()) {
            if (spec.tunedThp()) {
                // as an operator activates a profile: tuned-adm (re)starts tuned, which applies it
                fleet.checked(
                        spec.name(),
                        "tuned-adm profile " + LabOperatorShape.TUNED_PROFILE + " && tuned-adm active | grep -qw "
                                + LabOperatorShape.TUNED_PROFILE);
            }
        }
        for (LabHostSpec spec : topology.specs()) {
            if (spec.serviceShape() == LabServiceShape.SUPERVISORD) {
                // Redis answers while supervisord still calls its program STARTING, until startsecs have passed
                LabWait.until(
                        REPLICATION_TIMEOUT,
                        "supervisord on " + spec.name() + " to call program " + LabServiceShape.PROGRAM + " RUNNING",
                        () -> supervisorProblem(fleet, spec.name()));
            }
        }
        LabRedisCli cli = new LabRedisCli(fleet, topology);
        for (LabHostSpec spec : topology.specs()) {
            if (spec.replicaOf().isPresent() && !spec.cluster()) {
                LabWait.until(
                        REPLICATION_TIMEOUT,
                        spec.name() + " to sync with " + spec.replicaOf().orElseThrow(),
                        () -> cli.linkProblem(spec.name()));
            }
        }
        if (!topology.clusterNodes().isEmpty()) {
            settings.progress()
                    .accept("forming the Redis cluster: "
                            + Counts.of(topology.clusterPrimaries().size(), "primary") + ", "
                            + Counts.of(topology.clusterReplicas().size(), "replica"));
            new LabCluster(fleet, topology, cli).form();
        }
        if (!topology.sentinels().isEmpty()) {
            settings.progress().accept("starting " + topology.sentinels().size() + " Sentinels");
            new LabSentinels(fleet, topology, cli).start();
        }
    }

    /** Empty once supervisorctl calls the lab's program RUNNING; else what it says. */
    private static Optional<String> supervisorProblem(LabFleet fleet, String host) {
        String status = fleet.rootExec(host, "supervisorctl status " + LabServiceShape.PROGRAM + " 2>&1")
                .stdout()
                .strip();
        return status.contains("RUNNING") ? Optional.empty() : Optional.of("supervisorctl status: " + status);
    }

    /**
     * Removes the lab's containers (found by label, so only these) and its directory, and puts back this machine's
     * THP mode when a real-THP lab changed it.
     */
    static void tearDown(LabDocker docker, String id, Path dir) {
        docker.removeLab(id);
        new LabKernelThp(LabKernelThp.KERNEL).restore(dir);
        LabBuilder.deleteTree(dir);
    }
}
