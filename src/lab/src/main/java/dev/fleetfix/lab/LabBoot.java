package dev.fleetfix.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Starts lab hosts and waits until each one's sshd and Redis answer; explains a host that does not boot. */
final class LabBoot {
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final int PARALLEL_BOOTS = 8;

    private final LabDocker docker;

    LabBoot(LabDocker docker) {
        this.docker = docker;
    }

    /** Starts every container, a few at a time, and waits for all hosts. */
    void bootAll(Map<LabHost, String> containers) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(PARALLEL_BOOTS, containers.size()));
        try {
            List<Future<?>> boots = new ArrayList<>();
            containers.forEach((host, container) -> boots.add(pool.submit(() -> {
                docker.start(container);
                // Sentinels are installed once the fleet is up (LabSentinels): none answers at first boot.
                awaitReady(host, container, false);
            })));
            for (Future<?> boot : boots) {
                boot.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new LabException("lab hosts did not boot: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while booting lab hosts", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Waits for sshd and every Redis instance, and for the host's Sentinel too when {@code sentinel} and it runs
     * one.
     */
    void awaitReady(LabHost host, String container, boolean sentinel) {
        long deadline = System.nanoTime() + BOOT_TIMEOUT.toNanos();
        boolean ssh = false;
        boolean redis = false;
        boolean sentinelUp = !sentinel || host.sentinelPort().isEmpty();
        while (System.nanoTime() < deadline) {
            ssh = ssh || LabProbe.sshUp(host.address(), host.sshPort());
            redis = redis || host.redisPorts().stream().allMatch(port -> LabProbe.redisUp(host.address(), port));
            sentinelUp = sentinelUp
                    || LabProbe.redisUp(host.address(), host.sentinelPort().getAsInt());
            if (ssh && redis && sentinelUp) {
                return;
            }
            sleep(POLL);
        }
        throw new LabException("lab host " + host.name() + " (" + host.address() + ") did not come up within "
                + BOOT_TIMEOUT.toSeconds() + " s: sshd " + (ssh ? "answers" : "silent") + ", redis "
                + (redis ? "answers" : "silent") + (sentinelUp ? "" : ", sentinel silent") + inotifyHint() + "\n"
                + diagnostics(host, container));
    }

    /** Hosts that stall at boot with failed path units have usually run out of inotify instances. */
    private static String inotifyHint() {
        Path limit = Path.of("/proc/sys/fs/inotify/max_user_instances");
        try {
            int instances = Integer.parseInt(Files.readString(limit).strip());
            return instances >= 1024
                    ? ""
                    : "; fs.inotify.max_user_instances is " + instances + ", too low for many systemd hosts:"
                            + " raise it (sysctl -w fs.inotify.max_user_instances=8192, as src/lab/prepare.sh does)";
        } catch (IOException | NumberFormatException e) {
            return "";
        }
    }

    private String diagnostics(LabHost host, String container) {
        if (!docker.running(container)) {
            return "container stopped; its last output:\n" + docker.logTail(container, 30);
        }
        try {
            return docker.exec(
                                    container,
                                    Duration.ofSeconds(30),
                                    "bash",
                                    "-c",
                                    host.init() == LabInit.SYSV
                                            ? "ps -ef; tail -n 20 /var/log/redis/*.log"
                                            : "systemctl --failed --no-legend --plain; journalctl -b --no-pager -n 40"
                                                    + " -u fleetfix-lab-setup -u ssh -u "
                                                    + String.join(" -u ", host.services())
                                                    + " -u " + LabSentinelConf.UNIT)
                            .stdout()
                    + (host.init() == LabInit.SYSV ? "\ncontainer output:\n" + docker.logTail(container, 30) : "");
        } catch (RuntimeException e) {
            return "(no diagnostics: " + e.getMessage() + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted while waiting for a lab host", e);
        }
    }
}
