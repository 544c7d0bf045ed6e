package dev.fleetfix.redis.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SentinelMasterTest {
    @Test
    void readsAResp2EntryOfSentinelMasters() {
        List<String> entry = List.of(
                "name",
                "lab",
                "ip",
                "127.0.0.11",
                "port",
                "6379",
                "runid",
                "9f1c",
                "flags",
                "master",
                "num-slaves",
                "2",
                "num-other-sentinels",
                "2",
                "quorum",
                "2");
        SentinelMaster m = SentinelMaster.parse(entry).orElseThrow();
        assertThat(m).isEqualTo(new SentinelMaster("lab", "127.0.0.11", 6379, "master", 2, 2, 2));
        assertThat(m.at("127.0.0.11", 6379)).isTrue();
        assertThat(m.at("127.0.0.11", 6380)).isFalse();
        assertThat(m.troubled()).isFalse();
        assertThat(m.describe()).isEqualTo("'lab' at 127.0.0.11:6379 (quorum 2 of 3 sentinels)");
    }

    @Test
    void readsAResp3MapAndFlagsTrouble() {
        SentinelMaster m = SentinelMaster.parse(
                        Map.of("name", "cache", "ip", "10.0.0.1", "port", "6379", "flags", "master,s_down,o_down"))
                .orElseThrow();
        assertThat(m.troubled()).isTrue();
        assertThat(m.describe()).endsWith(", master,s_down,o_down)");
    }

    @Test
    void anEntryWithoutAddressIsSkipped() {
        assertThat(SentinelMaster.parse(List.of("name", "lab", "ip", "127.0.0.11")))
                .isEmpty();
        assertThat(SentinelMaster.parse("OK")).isEmpty();
    }
}
