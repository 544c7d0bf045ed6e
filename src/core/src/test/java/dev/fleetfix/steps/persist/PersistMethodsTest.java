package dev.fleetfix.steps.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PersistMethodsTest {
    @Test
    void grubArgIsAddedOnceAndReplacesAnotherValue() {
        String grub = "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"console=ttyS0 transparent_hugepage=always\"\n";
        String once = PersistMethods.withGrubArg(grub, "transparent_hugepage=never");
        assertThat(once).isEqualTo("GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"console=ttyS0 transparent_hugepage=never\"\n");
        assertThat(PersistMethods.withGrubArg(once, "transparent_hugepage=never"))
                .isEqualTo(once);
    }

    @Test
    void grubLineIsAddedWhenMissing() {
        assertThat(PersistMethods.withGrubArg("GRUB_DEFAULT=0", "transparent_hugepage=never"))
                .isEqualTo("GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"transparent_hugepage=never\"\n");
    }

    @Test
    void rcLocalLinesReplaceTheirOwnOlderVersion() {
        String old = "#!/bin/sh\necho always > /x/enabled # fleetfix-thp enabled\nexit 0\n";
        String updated =
                PersistMethods.withRcLocalLines(old, List.of("echo never > /x/enabled # fleetfix-thp enabled"));
        assertThat(updated).isEqualTo("#!/bin/sh\necho never > /x/enabled # fleetfix-thp enabled\nexit 0\n");
    }

    @Test
    void theUnitComesBeforeEveryRedisInstanceOfTheMachine() {
        String unit = PersistMethods.unitFile(new PersistMethod.Target(
                "/sys/kernel/mm/transparent_hugepage",
                "never",
                "never",
                "redis-server redis-server@b valkey-server@c"));
        assertThat(unit)
                .contains("Before=basic.target redis-server.service redis-server@b.service valkey-server@c.service\n");
    }
}
