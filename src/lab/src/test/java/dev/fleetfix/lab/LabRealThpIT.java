package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A real-THP lab: while it lives this machine's kernel THP is {@code always}, so a lab Redis
 * ({@code disable-thp no}) holds real huge pages; {@code fleetfix apply} of the thp-off remediation
 * sets the host's THP file to {@code never} and restarts its Redis, which then runs with THP
 * disabled for the process and holds none (issue 12: the remediation visibly takes AnonHugePages
 * to 0); removing the lab puts the kernel's mode back.
 */
class LabRealThpIT {
    private static long anonHugePagesKb(LabFleet fleet, String host) {
        String out = fleet.rootExec(
                        host,
                        "pid=$(pidof redis-server); grep THP_enabled /proc/$pid/status;"
                                + " awk '/^AnonHugePages:/ {kb += $2} END {print \"kb \" kb}' /proc/$pid/smaps_rollup")
                .stdout();
        System.out.println(host + ": " + out.strip().replace('\n', ' '));
        String kb = out.substring(out.indexOf("kb ") + 3).strip();
        return Long.parseLong(kb);
    }

    private static void fill(LabFleet fleet, String host) {
        LabHost h = fleet.host(host);
        // 300 MB of 1 KB values: enough for the allocator to take whole 2 MB regions
        var r = fleet.rootExec(
                host,
                "redis-benchmark -h " + h.address() + " -p " + h.redisPort()
                        + " -t set -n 300000 -r 300000 -d 1024 -P 32 -q >/dev/null && echo filled");
        assertThat(r.stdout()).as(r.toString()).contains("filled");
    }

    /**
     * The remediation the main job applies, without its benchmarks: the shipped thp-off playbook with
     * its two benchmark steps taken out (the audit, thp, persist_thp, restart_redis, wait_healthy and
     * assert steps stay as shipped).
     */
    private static Path remediation(LabFleet fleet) throws Exception {
        String shipped = Files.readString(Path.of("playbooks", "thp-off.yaml"));
        Matcher benchmarks = Pattern.compile("(?m)^    - name: benchmark (before|after)\n(?:      .*\n)*")
                .matcher(shipped);
        String trimmed = benchmarks.replaceAll("");
        assertThat(shipped.length() - trimmed.length())
                .as("benchmark steps removed")
                .isPositive();
        assertThat(trimmed).doesNotContain("benchmark: {").contains("- thp: {enabled: never", "- restart_redis:");
        Path file = fleet.directory().resolve("thp-off-without-benchmarks.yaml");
        Files.writeString(file, trimmed);
        return file;
    }

    private static String redisPid(LabFleet fleet) {
        return fleet.rootExec("lab-1", "pidof redis-server").stdout().strip();
    }

    @Test
    void hugePagesAreRealWhileTheLabLivesAndTheRemediationTakesThemAway() throws Exception {
        String found =
                LabKernelThp.selected(Files.readString(LabKernelThp.KERNEL)).orElseThrow();
        LabFleet fleet = LabFleet.start(
                List.of(LabHostSpec.named("lab-1").withThp(LabThp.ALWAYS)),
                LabSettings.forTests().withRealThp());
        try {
            assertThat(Files.readString(LabKernelThp.KERNEL)).contains("[always]");
            fill(fleet, "lab-1");
            long always = anonHugePagesKb(fleet, "lab-1");
            assertThat(always).as("AnonHugePages with the kernel at always").isGreaterThan(0);
            String pidBefore = redisPid(fleet);

            CliRun run = CliRun.of(
                    "apply",
                    remediation(fleet).toString(),
                    "-i",
                    fleet.inventoryFile().toString(),
                    "--no-color",
                    "--report",
                    fleet.directory().resolve("remediation-report").toString());
            System.out.println(run);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout())
                    .as(run.toString())
                    .contains("changed: [lab-1] thp: thp.enabled always → never")
                    .contains("changed: [lab-1] restart_redis")
                    .contains("ok: 1 host done");
            assertThat(fleet.thp("lab-1").strip()).isEqualTo("never");
            assertThat(redisPid(fleet)).as("Redis's pid after the remediation").isNotEqualTo(pidBefore);
            String status = fleet.rootExec("lab-1", "grep THP_enabled /proc/$(pidof redis-server)/status")
                    .stdout();
            assertThat(status).contains("THP_enabled:\t0");
            // refilled, so the 0 is not only a fresh, small heap
            fill(fleet, "lab-1");
            assertThat(anonHugePagesKb(fleet, "lab-1"))
                    .as("AnonHugePages after the remediation's restart")
                    .isZero();
            System.out.println(
                    "AnonHugePages: " + always + " kB at always, 0 kB after fleetfix apply (thp never, restart)");
        } finally {
            fleet.close();
        }
        assertThat(LabKernelThp.selected(Files.readString(LabKernelThp.KERNEL))).hasValue(found);
    }
}
