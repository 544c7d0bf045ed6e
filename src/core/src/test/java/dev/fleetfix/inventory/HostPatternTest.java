package dev.fleetfix.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fleetfix.InputException;
import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import dev.fleetfix.inventory.ansible.InventoryInput;
import dev.fleetfix.inventory.ansible.InventoryLoader;
import dev.fleetfix.inventory.ansible.InventoryService;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostPatternTest {
    private final Inventory fleet = InventoryLoader.load(Path.of("src/core/src/test/resources/inventory/fleet.yaml"));

    private List<String> select(String pattern) {
        return HostPattern.parse(pattern).select(fleet).stream().map(Host::name).toList();
    }

    @Test
    void exclusionsAndIntersectionsApplyAfterUnionsWhateverTheirPlace() {
        assertThat(select("!redis_primary:redis")).containsExactly("redis-2", "redis-3");
        assertThat(select("&eu:sentinel")).containsExactly("redis-1", "redis-2");
        assertThat(select("!sentinel")).containsExactly("bastion", "cache.eu.example.com");
    }

    @Test
    void aLimitFileIsOnePatternALineNeverSplitAgain() {
        java.util.Map<java.nio.file.Path, List<String>> files = java.util.Map.of(
                java.nio.file.Path.of("a.retry"), List.of("redis-2", "", "  bastion  ", "!sentinel"),
                java.nio.file.Path.of("b.retry"), List.of("redis-1:redis-2"));
        HostPattern limit = HostPattern.limit("redis-3,@a.retry", files::get).orElseThrow();
        assertThat(limit.select(fleet).stream().map(Host::name)).containsExactly("bastion");
        // "redis-1:redis-2" is one name, as Ansible reads a limit file's line: no host has it
        assertThatThrownBy(() ->
                        HostPattern.limit("@b.retry", files::get).orElseThrow().select(fleet))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("Could not match supplied host pattern: redis-1:redis-2");
    }

    @Test
    void aLimitNamingNothingIsNoLimitWhereAPlayPatternNamingNothingIsRefused() {
        assertThat(HostPattern.limit(",", path -> List.of())).isEmpty();
        assertThat(HostPattern.limit("", path -> List.of())).isEmpty();
        assertThat(HostPattern.limit("@empty.retry", path -> List.of("", " "))).isEmpty();
        assertThatThrownBy(() -> HostPattern.parse(",")).isInstanceOf(InputException.class);
    }

    @Test
    void selectionKeepsInventoryOrderWhateverThePatternOrder() {
        assertThat(select("sentinel-4,bastion,redis-2")).containsExactly("bastion", "redis-2", "sentinel-4");
    }

    @Test
    void wildcardsMatchGroupsAndHosts() {
        assertThat(select("redis_*")).containsExactly("redis-1", "redis-2", "redis-3");
        assertThat(select("*.eu.*")).containsExactly("cache.eu.example.com");
        assertThat(select("redis-?")).containsExactly("redis-1", "redis-2", "redis-3");
        assertThat(select("redis-[!1]")).containsExactly("redis-2", "redis-3");
    }

    @Test
    void aTermThatMatchesNothingIsAnErrorNamingIt() {
        assertThatThrownBy(() -> select("redis:redis_primry"))
                .isInstanceOf(InputException.class)
                .hasMessage("Could not match supplied host pattern: redis_primry (in \"redis:redis_primry\")");
        assertThatThrownBy(() -> select("web-*"))
                .isInstanceOf(InputException.class)
                .hasMessage("Could not match supplied host pattern: web-*");
    }

    @Test
    void aPatternThatSelectsNoHostIsAnError() {
        assertThatThrownBy(() -> select("redis_primary:&redis_replica"))
                .isInstanceOf(InputException.class)
                .hasMessage("host pattern \"redis_primary:&redis_replica\" selects no host");
    }

    @Test
    void badPatternsAreInputErrors() {
        assertThatThrownBy(() -> HostPattern.parse(" ")).isInstanceOf(InputException.class);
        assertThatThrownBy(() -> HostPattern.parse("~(redis"))
                .hasMessageStartingWith("host pattern \"~(redis\": invalid regex \"~(redis\"");
    }

    @Test
    void theImplicitLocalhostInventorySelectsLocalhost() {
        assertThat(HostPattern.parse("all").select(Inventory.implicitLocalhost()))
                .extracting(Host::name)
                .containsExactly("localhost");
    }

    @Test
    void aPatternThatCannotBeParsedIsRefusedNeverWidened() {
        for (String pattern : new String[] {"[", "]", "~[", "a:[", "redis:[", "redis,]", "[redis", "redis]"}) {
            assertThatThrownBy(() -> HostPattern.parse(pattern))
                    .as(pattern)
                    .isInstanceOf(InputException.class)
                    .hasMessageStartingWith("host pattern \"" + pattern + "\"");
        }
        assertThatThrownBy(() -> HostPattern.parse(":")).hasMessage("host pattern \":\" names no group or host");
    }

    @Test
    void anEmptyRegexIsRefusedNotReadAsEveryHost() {
        // Ansible's "~" is re.match(""), true for every name: a limit cut short must not widen a run to everything
        for (String pattern : new String[] {"~", "~ ", " ~\t", "redis-1,~", "redis-1:~", "&~", "redis-1:!~"}) {
            assertThatThrownBy(() -> HostPattern.parse(pattern))
                    .as(pattern)
                    .isInstanceOf(InputException.class)
                    .hasMessageStartingWith("host pattern \"" + pattern + "\": \"~\" is an empty regex, which would"
                            + " select every host");
        }
        assertThat(select("~.*")).hasSize(fleet.hosts().size());
        assertThat(select("~redis-[12]")).containsExactly("redis-1", "redis-2");
    }

    @Test
    void aSubscriptPastAnIntIsRefusedByName() {
        assertThatThrownBy(() -> HostPattern.parse("all[99999999999]"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("subscript 99999999999 in \"all[99999999999]\" is out of range");
        assertThatThrownBy(() -> HostPattern.parse("redis[0:99999999999]"))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("out of range");
        assertThat(select("redis[0:1]")).containsExactly("redis-1", "redis-2");
        assertThat(select("redis[0:1]:bastion")).containsExactly("bastion", "redis-1", "redis-2");
    }

    @Test
    void anExclusionOrIntersectionMatchingNothingIsAnsiblesWarningNotAnError() {
        List<String> warnings = new ArrayList<>();

        List<String> all = HostPattern.parse("all:!redis_primry").select(fleet, warnings::add).stream()
                .map(Host::name)
                .toList();

        assertThat(all).hasSize(fleet.hosts().size());
        assertThat(warnings)
                .containsExactly("Could not match supplied host pattern, ignoring: redis_primry"
                        + " (!redis_primry in \"all:!redis_primry\")");
    }

    @Test
    void anIntersectionMatchingNothingWarnsThenSelectsNoHostWhichIsRefused() {
        List<String> warnings = new ArrayList<>();

        assertThatThrownBy(() -> HostPattern.parse("redis:&nosuch").select(fleet, warnings::add))
                .isInstanceOf(InputException.class)
                .hasMessage("host pattern \"redis:&nosuch\" selects no host");
        assertThat(warnings)
                .containsExactly(
                        "Could not match supplied host pattern, ignoring: nosuch" + " (&nosuch in \"redis:&nosuch\")");
    }

    @Test
    void anIpv6AddressIsOneHostNotGroupsJoinedByColons() {
        InventoryInput hostList = new InventoryInput(
                List.of(Path.of("fe80::1,2001:db8::1,r1,")),
                false,
                List.of(),
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
                List.of(),
                List.of(),
                Optional.empty(),
                Optional.empty());
        Inventory hosts = new InventoryService(AnsibleEnvironment.none(), InventoryService.Messages.none())
                .read(hostList, Optional.empty())
                .orElseThrow()
                .inventory();

        assertThat(HostPattern.parse("fe80::1").select(hosts))
                .extracting(Host::name)
                .containsExactly("fe80::1");
        assertThat(HostPattern.parse("2001:db8::1").select(hosts))
                .extracting(Host::name)
                .containsExactly("2001:db8::1");
        assertThat(HostPattern.isIpv6("fe80::1")).isTrue();
        assertThat(HostPattern.isIpv6("::ffff:10.0.0.1")).isTrue();
        // names made of hex digits stay groups: "ab:cd" is no address, and neither is a name DNS would resolve
        assertThat(HostPattern.isIpv6("ab:cd")).isFalse();
        assertThat(HostPattern.isIpv6("redis:sentinel")).isFalse();
        assertThat(HostPattern.isIpv6("1234")).isFalse();
    }
}
