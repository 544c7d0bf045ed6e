package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.fleetfix.InputException;
import dev.fleetfix.Secret;
import dev.fleetfix.inventory.Connection;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostPattern;
import dev.fleetfix.inventory.Inventory;
import dev.fleetfix.inventory.RedisAuth;
import dev.fleetfix.inventory.RedisEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InventoryLoaderTest {
    private static final Path DIR = AnsibleGoldenTest.DIR.toAbsolutePath();

    @TempDir
    Path tmp;

    @Test
    void readsAnAnsibleInventoryWithChildrenAndVars() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("fleet.yaml"));

        Host replica = inventory.host("redis-3").orElseThrow();
        assertThat(replica.address()).isEqualTo("10.0.1.13");
        assertThat(replica.port()).isEqualTo(2222);
        assertThat(replica.user()).contains("deploy");
        assertThat(replica.become()).isTrue();
        assertThat(replica.connection()).isEqualTo(Connection.SSH);
        assertThat(replica.groups()).containsExactly("all", "redis", "sentinel", "redis_replica");
        assertThat(replica.vars()).containsEntry("role", "replica").containsEntry("tier", "redis");
        assertThat(replica.redis().address()).isEqualTo("10.0.1.13");
        assertThat(replica.redis().port()).isEqualTo(6379);
        assertThat(replica.redis().serviceUnit()).isEqualTo("redis-server");
        assertThat(replica.redis().auth().passwordEnv()).contains("REDIS_PASSWORD");
        assertThat(inventory.groups().get("redis")).containsExactly("redis-1", "redis-2", "redis-3");
        assertThat(inventory.groups().get("ungrouped")).containsExactly("bastion");
        assertThat(inventory.source()).contains(DIR.resolve("fleet.yaml"));
    }

    @Test
    void theExampleAtTheRepositoryRootLoads() {
        Inventory inventory = InventoryLoader.load(Path.of("inventory.example.yaml"));

        assertThat(HostPattern.parse("redis:!redis_primary").select(inventory))
                .extracting(Host::name)
                .containsExactly("redis-eu-2", "redis-eu-3");
        Host replica = inventory.host("redis-eu-3").orElseThrow();
        assertThat(replica.redis().toString()).isEqualTo("10.20.0.13:6380 (tls)");
        assertThat(replica.jump()).contains("ops@bastion.example.internal:22");
        assertThat(replica.redis().auth().passwordEnv()).contains("REDIS_PASSWORD");
        Host local = inventory.host("localhost").orElseThrow();
        assertThat(local.connection()).isEqualTo(Connection.LOCAL);
        assertThat(local.redis().auth().passwordFile())
                .contains(Path.of("secrets/local-redis.pass").toAbsolutePath());
    }

    @Test
    void aHostWithAnEmptyBodyIsReachedByItsName() {
        Host sentinel = InventoryLoader.load(DIR.resolve("fleet.yaml"))
                .host("sentinel-4")
                .orElseThrow();
        Host cache = InventoryLoader.load(DIR.resolve("fleet.yaml"))
                .host("cache.eu.example.com")
                .orElseThrow();

        assertThat(sentinel.port()).isEqualTo(22);
        assertThat(cache.address()).isEqualTo("cache.eu.example.com");
        assertThat(cache.connection()).isEqualTo(Connection.LOCAL);
        assertThat(cache.redis().port()).isEqualTo(6380);
        assertThat(cache.describe()).isEqualTo("cache.eu.example.com (local)");
    }

    @Test
    void hostOverChildGroupOverParentGroupOverAll() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("precedence.yaml"));

        assertThat(inventory.host("h1").orElseThrow().vars())
                .containsEntry("level", "host")
                .containsEntry("color", "blue");
        // h2 is in child (depth 2) and in alpha and beta (depth 1): the deeper group wins.
        assertThat(inventory.host("h2").orElseThrow().vars()).containsEntry("level", "child");
    }

    @Test
    void siblingGroupsMergeByNameUnlessAGroupHasAPriority() {
        Host h3 =
                InventoryLoader.load(DIR.resolve("precedence.yaml")).host("h3").orElseThrow();

        assertThat(h3.vars())
                .containsEntry("sibling2", "gamma") // aardvark < beta < gamma: gamma loads last
                .containsEntry("sibling", "alpha") // ansible_group_priority 10 beats beta's default 1
                .doesNotContainKey("ansible_group_priority");
        assertThat(h3.groups()).containsExactly("all", "aardvark", "beta", "gamma", "alpha");
    }

    @Test
    void aHostDefinedTwiceMergesItsVariables() {
        Host h3 =
                InventoryLoader.load(DIR.resolve("precedence.yaml")).host("h3").orElseThrow();

        assertThat(h3.vars()).containsEntry("first", "two").containsEntry("second", "two");
    }

    @Test
    void readsFleetfixShortKeysAndResolvesRelativePathsAgainstTheInventory() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("shortkeys.yaml"));

        Host r1 = inventory.host("r1").orElseThrow();
        assertThat(r1.address()).isEqualTo("192.0.2.10");
        assertThat(r1.port()).isEqualTo(2201);
        assertThat(r1.user()).contains("admin");
        assertThat(r1.become()).isTrue();
        assertThat(r1.keyFile()).contains(DIR.resolve("keys/id_ed25519"));
        assertThat(r1.knownHosts()).contains(DIR.resolve("known_hosts"));
        assertThat(r1.jump()).contains("ops@bastion.example.com:22");
        assertThat(r1.redis())
                .isEqualTo(new RedisEndpoint(
                        "192.0.2.110",
                        6390,
                        new RedisAuth(
                                Optional.empty(), Optional.of(DIR.resolve("secrets/redis.pass")), Optional.empty()),
                        true,
                        "redis@main"));

        Host r2 = inventory.host("r2").orElseThrow();
        assertThat(r2.user()).as("ansible_user beside a group's user").contains("root");
        assertThat(r2.keyFile()).contains(Path.of(System.getProperty("user.home"), ".ssh/fleet"));
        assertThat(r2.become()).isFalse();
        assertThat(r2.redis().auth().password()).contains(Secret.of("s3cret-plain"));

        Host r3 = inventory.host("r3").orElseThrow();
        assertThat(r3.address())
                .as("ansible_host wins over host in the same place")
                .isEqualTo("192.0.2.12");
        assertThat(r3.user()).contains("operator");
        assertThat(r3.connection()).isEqualTo(Connection.LOCAL);
    }

    @Test
    void aPlainPasswordIsNeverPrinted() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("shortkeys.yaml"));

        assertThat(inventory.host("r2").orElseThrow().toString()).doesNotContain("s3cret-plain");
        assertThat(inventory.toString()).doesNotContain("s3cret-plain");
    }

    @Test
    void acceptsTopLevelGroupsWithoutAll() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("toplevel.yaml"));

        assertThat(inventory.hosts()).extracting(Host::name).containsExactly("web-1", "web-2", "lonely", "db-1");
        assertThat(inventory.host("web-2").orElseThrow().port()).isEqualTo(2202);
        assertThat(inventory.host("db-1").orElseThrow().redis().tls()).isTrue();
        assertThat(inventory.groups().get("db")).containsExactly("db-1");
    }

    @Test
    void hostsMayBeABareNameAsInAnsible() throws IOException {
        Inventory inventory = load("""
                redis:
                  hosts: redis-1
                """);

        assertThat(inventory.hosts()).extracting(Host::name).containsExactly("redis-1");
    }

    @Test
    void hostKeysWithRangesAndPortsAreExpandedAsAnsibleDoes() {
        Inventory inventory = InventoryLoader.load(DIR.resolve("ranges.yaml"));

        assertThat(inventory.groups().get("redis")).startsWith("redis-01", "redis-02", "redis-03", "node-a");
        assertThat(inventory.host("redis-02").orElseThrow().redis().port()).isEqualTo(6380);
        assertThat(inventory.host("spare-6.example.com")).isPresent();
        assertThat(inventory.host("bastion").orElseThrow().port()).isEqualTo(2222);
        assertThat(inventory.host("other").orElseThrow().user()).contains("ops");
    }

    @Test
    void aBackwardsRangeIsAnError() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    web-[3:1]:\n"))
                .hasMessageEndingWith("inventory.yaml:3:5: host range in \"web-[3:1]\" runs backwards");
    }

    @Test
    void hostsOfTheSentinelGroupRunASentinelReachedAtItsOwnPortAndPassword() throws IOException {
        Inventory inventory = load(
                """
                all:
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 10.0.0.1, redis_password_env: REDIS_PW}
                        r2: {ansible_host: 10.0.0.2}
                    sentinel:
                      vars:
                        sentinel_port: 26380
                        sentinel_password: s3cret
                      hosts:
                        r1:
                        s9: {ansible_host: 10.0.0.9, sentinel_port: 5000}
                """);
        Host r1 = inventory.host("r1").orElseThrow();
        assertThat(r1.sentinel()).map(RedisEndpoint::toString).contains("10.0.0.1:26380");
        Host viaSentinel = r1.asSentinel().orElseThrow();
        assertThat(viaSentinel.name()).isEqualTo("r1");
        assertThat(viaSentinel.redis().port()).isEqualTo(26380);
        assertThat(viaSentinel.redis().auth().password()).map(Secret::reveal).contains("s3cret");
        assertThat(r1.redis().auth().passwordEnv()).contains("REDIS_PW");
        assertThat(inventory.host("r2").orElseThrow().sentinel()).isEmpty();
        assertThat(inventory.sentinels())
                .extracting(h -> h.name() + " " + h.redis())
                .containsExactly("r1 10.0.0.1:26380", "s9 10.0.0.9:5000");
        assertThat(r1.vars().get("sentinel_password").toString()).doesNotContain("s3cret");
    }

    @Test
    void aclUsersForRedisAndSentinelGoNextToTheirPasswords() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    redis_user: ops
                    redis_password_env: REDIS_PW
                  children:
                    redis:
                      hosts:
                        r1: {ansible_host: 10.0.0.1}
                    sentinel:
                      vars: {sentinel_user: watcher, sentinel_password: s3cret}
                      hosts:
                        r1:
                """);
        Host r1 = inventory.host("r1").orElseThrow();
        assertThat(r1.redis().auth().user()).contains("ops");
        assertThat(r1.redis().auth().userName()).isEqualTo("ops");
        assertThat(r1.asSentinel().orElseThrow().redis().auth().user()).contains("watcher");
        assertThat(inventory.warnings()).isEmpty();
        assertThat(RedisAuth.NONE.userName()).isEqualTo("default");
    }

    @Test
    void anUnknownRedisKeyIsNamedWithTheKeyItLooksLike() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    redis_usr: ops
                  hosts:
                    r1: {ansible_host: 10.0.0.1, sentinel_pasword: x, redis_flavour: valkey}
                    r2: {ansible_host: 10.0.0.2}
                """);
        assertThat(inventory.host("r1").orElseThrow().redis().auth().user()).isEmpty();
        assertThat(inventory.warnings())
                .as("each once, though two hosts inherit redis_usr")
                .hasSize(3)
                .anyMatch(
                        w -> w.endsWith(":3:16: unknown Redis key redis_usr is ignored, did you mean" + " redis_user?"))
                .anyMatch(w -> w.contains("sentinel_pasword is ignored, did you mean sentinel_password?"))
                .anyMatch(w -> w.endsWith("unknown Redis key redis_flavour is ignored"));
    }

    @Test
    void aBadSentinelPortNamesItsLine() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          children:
                            sentinel:
                              hosts:
                                r1: {sentinel_port: 0}
                        """))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("inventory.yaml:5:")
                .hasMessageEndingWith("host r1: sentinel_port must be a number 1..65535, was 0");
    }

    @Test
    void aBadPortNamesFileLineColumnHostFieldAndValue() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          hosts:
                            redis-3:
                              ansible_port: 22x
                        """))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith(
                        "inventory.yaml:4:21: host redis-3: ansible_port must be a number 1..65535, was \"22x\"")
                .satisfies(e -> assertThat(((InputException) e).line()).isEqualTo(4));
    }

    @Test
    void aBadPortSetOnAGroupPointsAtTheGroupVariable() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        redis:
                          vars:
                            redis_port: 70000
                          hosts:
                            redis-1:
                        """))
                .hasMessageEndingWith(
                        "inventory.yaml:3:17: host redis-1: redis_port must be a number 1..65535, was 70000");
    }

    @Test
    void badBooleansAndConnectionsAreRefused() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    a:\n      ansible_become: maybe\n"))
                .hasMessageEndingWith(
                        "inventory.yaml:4:23: host a: ansible_become must be true or false, was \"maybe\"");
        assertThatThrownBy(() -> load("all:\n  hosts:\n    a:\n      redis_tls: [1]\n"))
                .hasMessageEndingWith("inventory.yaml:4:18: host a: redis_tls must be true or false, was a list");
        assertThatThrownBy(() -> load("all:\n  hosts:\n    a:\n      ansible_connection: [ssh]\n"))
                .hasMessageEndingWith("inventory.yaml:4:27: host a: ansible_connection must name a connection plugin"
                        + " (ssh, local, ...), was a list");
        assertThatThrownBy(() -> load("all:\n  hosts:\n    a:\n      ansible_user: ''\n"))
                .hasMessageEndingWith("inventory.yaml:4:21: host a: ansible_user must be a non-empty string, was \"\"");
    }

    @Test
    void anUnknownKeyUnderAGroupIsAnError() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          children:
                            redis:
                              redis-1:
                        """))
                .hasMessageEndingWith("inventory.yaml:4:7: group redis: unknown key \"redis-1\""
                        + " (a group holds only hosts, vars and children; is it a host missing under hosts:?)");
    }

    @Test
    void sectionsAndBodiesOfTheWrongShapeAreErrors() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    - redis-1\n"))
                .hasMessageEndingWith("inventory.yaml:3:5: group all: hosts must be a mapping, was a list");
        assertThatThrownBy(() -> load("all:\n  hosts:\n    redis-1: 10.0.0.1\n"))
                .hasMessageEndingWith(
                        "inventory.yaml:3:14: host redis-1: expected a mapping of variables, was \"10.0.0.1\"");
        assertThatThrownBy(() -> load("all:\n  children:\n    redis: [a]\n"))
                .hasMessageEndingWith(
                        "inventory.yaml:3:12: group redis: expected a mapping with hosts, vars or children, was a list");
        assertThatThrownBy(() -> load("- redis-1\n"))
                .hasMessageEndingWith(
                        "inventory.yaml:1:1: the inventory must be a mapping of groups (all: ...), was a list");
        assertThatThrownBy(() -> load("all:\n  vars:\n    ansible_group_priority: high\n"))
                .hasMessageEndingWith(
                        "inventory.yaml:3:29: group all: ansible_group_priority must be an integer, was \"high\"");
    }

    @Test
    void aGroupLoopIsAnError() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        a:
                          children:
                            b:
                              children:
                                a:
                        """))
                .hasMessageEndingWith("inventory.yaml:3:5: group b as a child of a creates a loop");
    }

    @Test
    void twoPasswordSourcesInOnePlaceAreAnErrorThatDoesNotPrintThePassword() throws IOException {
        assertThatThrownBy(
                        () -> load(
                                """
                        all:
                          hosts:
                            r1:
                              redis_password: hunter2
                              redis_password_env: REDIS_PW
                        """))
                .hasMessageEndingWith("inventory.yaml:4:23: host r1: set only one of redis_password_env,"
                        + " redis_password_file, redis_password (found redis_password_env and redis_password)")
                .message()
                .doesNotContain("hunter2");
    }

    @Test
    void aHostsPasswordSourceReplacesItsGroups() throws IOException {
        Inventory inventory = load(
                """
                all:
                  vars:
                    redis_password_env: REDIS_PW
                  hosts:
                    r1:
                      redis_password_file: /etc/redis/pass
                """);

        assertThat(inventory.host("r1").orElseThrow().redis().auth())
                .isEqualTo(new RedisAuth(Optional.empty(), Optional.of(Path.of("/etc/redis/pass")), Optional.empty()));
    }

    @Test
    void yamlSyntaxErrorsNameTheLine() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    a: 1\n   b: 2\n"))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("inventory.yaml:4:4: YAML syntax error: line 4 is indented 3 spaces, which"
                        + " matches no level of the lines above it");
    }

    @Test
    void emptyAndMissingFilesAreClearErrors() throws IOException {
        assertThatThrownBy(() -> load("# nothing yet\n"))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("inventory.yaml: inventory is empty: define at least one host");
        assertThatThrownBy(() -> InventoryLoader.load(tmp.resolve("nope.yaml")))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("nope.yaml: no such file");
    }

    @Test
    void aHostKeyYamlTypesAsANumberIsRefusedAsAnsibleDoes() throws IOException {
        assertThatThrownBy(() -> load("all:\n  hosts:\n    1234:\n    redis-1:\n"))
                .isInstanceOf(InputException.class)
                .hasMessageEndingWith("inventory.yaml:3:5: Host pattern 1234 must be a string. Enclose integers/floats"
                        + " in quotation marks (\"1234\":)");
        assertThatThrownBy(() -> load("all:\n  hosts:\n    1.5:\n"))
                .hasMessageEndingWith("inventory.yaml:3:5: Host pattern 1.5 must be a string. Enclose integers/floats"
                        + " in quotation marks (\"1.5\":)");

        assertThat(load("all:\n  hosts:\n    \"1234\":\n").hosts())
                .extracting(Host::name)
                .containsExactly("1234");
    }

    @Test
    void aConnectionFleetfixHasNoTransportForIsListedAsUnsupported() throws IOException {
        Inventory inventory = load(
                """
                all:
                  hosts:
                    w1: {ansible_connection: winrm}
                    d1: {ansible_connection: community.docker.docker}
                    p1: {ansible_connection: paramiko}
                    l1: {ansible_connection: local}
                """);

        assertThat(inventory.hosts())
                .extracting(Host::name, Host::connection)
                .containsExactly(
                        tuple("w1", Connection.UNSUPPORTED),
                        tuple("d1", Connection.UNSUPPORTED),
                        tuple("p1", Connection.SSH),
                        tuple("l1", Connection.LOCAL));
    }

    private Inventory load(String yaml) throws IOException {
        Path file = tmp.resolve("inventory.yaml");
        Files.writeString(file, yaml);
        return InventoryLoader.load(file);
    }
}
