package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LabScaleTest {

    private static List<LabHost> hosts(int count, int redisPortFrom) {
        List<LabHost> hosts = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            int port = i >= redisPortFrom ? 6380 : 6379;
            hosts.add(new LabHost("lab-" + i, "127.0.1." + (10 + i), 22, port));
        }
        return hosts;
    }

    @Test
    void sixteenHostsAtMostShareAnSshdAndARedisAndOnlyOnTheSamePort() {
        // 40 hosts, the last 5 with Redis on 6380 (6379 taken on their address)
        List<List<LabHost>> groups = LabScale.groups(hosts(40, 36));

        assertThat(groups).extracting(List::size).containsExactly(16, 16, 3, 5);
        assertThat(groups.get(3)).allMatch(h -> h.redisPort() == 6380);
        assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(40);
    }

    @Test
    void sshdListensOnEachHostsAddressWithoutPamAndAcceptsABurstOfLogins() {
        List<LabHost> group = hosts(16, 99);

        String conf = LabScale.sshdConfig(group);

        assertThat(conf.lines().filter(l -> l.startsWith("ListenAddress "))).hasSize(16);
        assertThat(conf).contains("ListenAddress 127.0.1.11:22\n", "ListenAddress 127.0.1.26:22\n");
        assertThat(conf).contains("UsePAM no\n", "PasswordAuthentication no\n", "MaxStartups 2000\n");
    }

    @Test
    void redisBindsEveryAddressOfItsGroupOnItsPortAndSavesNothing() {
        String conf = LabScale.redisConfig(3, hosts(16, 99));

        assertThat(conf).contains("port 6379\n", "save \"\"\n", "dbfilename scale-3.rdb\n");
        assertThat(conf.lines()
                        .filter(l -> l.startsWith("bind "))
                        .findFirst()
                        .orElseThrow()
                        .split(" "))
                .hasSize(17);
    }

    @Test
    void thePresetAllowsAThousandHostsAndOtherPresetsKeepTheirLimit() {
        assertThat(LabPreset.parse("scale").maxHosts()).isEqualTo(1000);
        assertThat(LabPreset.SCALE.specs(500)).hasSize(500);
        assertThat(LabPreset.THP_ALWAYS.maxHosts()).isEqualTo(LabFleet.MAX_HOSTS);
    }
}
