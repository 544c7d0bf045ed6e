package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A real-THP lab: while it lives this machine's kernel THP is {@code always}, so a lab Redis
 * ({@code disable-thp no}) holds real huge pages; a host whose THP file is set to {@code never}
 * restarts its Redis with THP disabled for the process and holds none; removing the lab puts the
 * kernel's mode back.
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

    @Test
    void hugePagesAreRealWhileTheLabLivesAndTheHostsNeverTakesThemAway() throws Exception {
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

            var r = fleet.rootExec(
                    "lab-1",
                    "echo never > /sys/kernel/mm/transparent_hugepage/enabled && systemctl restart redis-server"
                            + " && echo restarted");
            assertThat(r.stdout()).as(r.toString()).contains("restarted");
            String status = fleet.rootExec("lab-1", "sleep 2; grep THP_enabled /proc/$(pidof redis-server)/status")
                    .stdout();
            assertThat(status).contains("THP_enabled:\t0");
            fill(fleet, "lab-1");
            assertThat(anonHugePagesKb(fleet, "lab-1"))
                    .as("AnonHugePages after never")
                    .isZero();
            System.out.println("AnonHugePages: " + always + " kB at always, 0 kB after never and a restart");
        } finally {
            fleet.close();
        }
        assertThat(LabKernelThp.selected(Files.readString(LabKernelThp.KERNEL))).hasValue(found);
    }
}
