package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.management.ThreadMXBean;
import dev.fleetfix.InputException;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The small parsers behind Ansible's formats: literal_eval, shlex, ansible.cfg, ansible-inventory. */
class AnsibleFormatsTest {
    @TempDir
    Path dir;

    @Test
    void literalEvalTypesValuesAsPythonDoes() {
        assertThat(PythonLiteral.evalToJava("8080")).isEqualTo(8080);
        assertThat(PythonLiteral.evalToJava("-2147483648")).isEqualTo(Integer.MIN_VALUE);
        assertThat(PythonLiteral.evalToJava("2147483648")).isEqualTo(2147483648L);
        assertThat(PythonLiteral.evalToJava("99999999999999999999")).isEqualTo(new BigInteger("99999999999999999999"));
        assertThat(PythonLiteral.evalToJava("1_000")).isEqualTo(1000);
        assertThat(PythonLiteral.evalToJava("0o17")).isEqualTo(15);
        assertThat(PythonLiteral.evalToJava("1e3")).isEqualTo(1000.0);
        assertThat(PythonLiteral.evalToJava("True")).isEqualTo(true);
        assertThat(PythonLiteral.evalToJava("None")).isNull();
        assertThat(PythonLiteral.evalToJava("'a' \"b\"")).isEqualTo("ab");
        assertThat(PythonLiteral.evalToJava("'\\x41\\n'")).isEqualTo("A\n");
        assertThat(PythonLiteral.evalToJava("{'a': (1, 2), 'b': {3}}"))
                .isEqualTo(Map.of("a", List.of(1, 2), "b", List.of(3)));
        assertThat(PythonLiteral.evalToJava("(5)")).isEqualTo(5);
        assertThat(PythonLiteral.evalToJava("[[[[1]]]]")).isEqualTo(List.of(List.of(List.of(List.of(1)))));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "true",
                "yes",
                "0777",
                "1__0",
                "web 1",
                "[1,",
                "'open",
                "1j",
                "inf",
                "-True",
                "b'x'",
                "os.system('x')"
            })
    void whatIsNoPythonLiteralStaysTheStringItWas(String text) {
        assertThat(PythonLiteral.evalToJava(text)).isEqualTo(text);
    }

    @Test
    void deeplyNestedValuesAreStringsNotAStackOverflow() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);

        assertThat(PythonLiteral.evalToJava(deep)).isEqualTo(deep);
    }

    @Test
    void shlexSplitsLikePythonWithComments() {
        assertThat(Shlex.split("h a='x y' b=\"q\\\"z\" c=d\\ e f=g#comment h=i"))
                .containsExactly("h", "a=x y", "b=q\"z", "c=d e", "f=g");
        assertThatThrownBy(() -> Shlex.split("h a='x")).hasMessageContaining("no closing quotation");
    }

    @Test
    void ansibleCfgIsFoundAsAnsibleFindsItAndTheEnvironmentWins() throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path cwd = Files.createDirectories(dir.resolve("repo"));
        Files.writeString(home.resolve(".ansible.cfg"), "[defaults]\nremote_user = from-home\n");
        assertThat(AnsibleConfig.find(Map.of(), cwd, home).get("defaults.remote_user"))
                .contains("from-home");

        Files.writeString(cwd.resolve("ansible.cfg"), "[defaults]\nremote_user: from-cwd ; comment\nforks=7\n");
        AnsibleConfig local = AnsibleConfig.find(Map.of(), cwd, home);
        assertThat(local.get("defaults.remote_user")).contains("from-cwd");
        assertThat(local.positiveInt("defaults.forks")).contains(7);

        Path named = Files.writeString(dir.resolve("named.cfg"), "[defaults]\nremote_user = named\n");
        Map<String, String> env = new HashMap<>(Map.of("ANSIBLE_CONFIG", named.toString()));
        assertThat(AnsibleConfig.find(env, cwd, home).get("defaults.remote_user"))
                .contains("named");

        env.put("ANSIBLE_REMOTE_USER", "from-env");
        assertThat(AnsibleConfig.find(env, cwd, home).get("defaults.remote_user"))
                .contains("from-env");
    }

    @Test
    void aWorldWritableWorkingDirectoryIsNotTrustedForAnsibleCfg() throws IOException {
        Path cwd = Files.createDirectories(dir.resolve("shared"));
        Files.writeString(cwd.resolve("ansible.cfg"), "[defaults]\nremote_user = attacker\n");
        Files.setPosixFilePermissions(cwd, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThat(AnsibleConfig.find(Map.of(), cwd, dir).get("defaults.remote_user"))
                .isEmpty();
    }

    @Test
    void badAnsibleCfgValuesNameFileAndLine() throws IOException {
        Path cfg = Files.writeString(dir.resolve("ansible.cfg"), "[defaults]\n\nforks = many\n");
        AnsibleConfig config = AnsibleConfig.find(Map.of("ANSIBLE_CONFIG", cfg.toString()), dir, dir);

        assertThatThrownBy(() -> config.positiveInt("defaults.forks"))
                .isInstanceOf(InputException.class)
                .hasMessage(cfg + ":3: forks must be a whole number of at least 1, was \"many\"");
    }

    @Test
    void theHostsOfAllSourcesTogetherAreCappedBeforeAnyRangeIsExpanded() throws IOException {
        // eight lines under the cap of one range each: expanding them used 5 GB and gave nothing in 5 minutes
        Path ini = Files.writeString(dir.resolve("hosts.ini"), "[g]\n" + "a[0:999999]\n".repeat(8));
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> { // for a run that never ends, as the 5 GB one did
                    long allocated = threads.getCurrentThreadAllocatedBytes();
                    assertThatThrownBy(() -> InventorySources.load(ini.toString(), Optional.empty()))
                            .isInstanceOf(InputException.class)
                            .hasMessage(
                                    ini + ":3:1: host \"a[0:999999]\" takes the inventory past 1000000 host names (all"
                                            + " sources and groups together, ranges expanded), the most fleetfix reads");
                    // what the expansion cost, measured in bytes rather than seconds (which are the machine's): 5 GB
                    // before
                    assertThat(threads.getCurrentThreadAllocatedBytes() - allocated)
                            .isLessThan(64L * 1024 * 1024);
                });

        // the sources of a directory count together: a YAML file's range, then an INI file's, past the cap
        Path both = Files.createDirectories(dir.resolve("inventory"));
        Files.writeString(both.resolve("a.yml"), "all:\n  hosts:\n    'y[1:600000]':\n");
        Files.writeString(both.resolve("b-hosts"), "[g]\nz[1:600000]\n");
        assertThatThrownBy(() -> InventorySources.load(both.toString(), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith(
                        both.resolve("b-hosts") + ":2:1: host \"z[1:600000]\" takes the inventory past");
        // nested ranges multiply, and a bound past a long is no escape
        for (String key : List.of("n[0:1000][0:1000]", "n[0:99999999999999999999]")) {
            Files.writeString(ini, "[g]\n" + key + "\n");
            assertThatThrownBy(() -> InventorySources.load(ini.toString(), Optional.empty()))
                    .as(key)
                    .hasMessageStartingWith(ini + ":2:1: host \"" + key + "\" takes the inventory past");
        }
    }

    @Test
    void ansibleCfgFillsOnlyWhatTheInventoryLeftUnset() throws IOException {
        Path ini =
                Files.writeString(dir.resolve("hosts.ini"), "[redis]\nr1 ansible_user=ops\nr2 ansible_become=False\n");
        Path cfg = Files.writeString(
                dir.resolve("ansible.cfg"),
                "[defaults]\nremote_user = deploy\nprivate_key_file = keys/id\n[privilege_escalation]\nbecome = True\n");
        AnsibleConfig config = AnsibleConfig.find(Map.of("ANSIBLE_CONFIG", cfg.toString()), dir, dir);

        Inventory inventory = config.applyTo(
                InventorySources.load(ini.toString(), Optional.empty()).inventory());

        Host r1 = inventory.host("r1").orElseThrow();
        Host r2 = inventory.host("r2").orElseThrow();
        assertThat(r1.user()).contains("ops");
        assertThat(r2.user()).contains("deploy");
        assertThat(r1.keyFile()).contains(dir.resolve("keys/id"));
        assertThat(r1.become()).isTrue();
        assertThat(r2.become()).isFalse();
    }

    @Test
    void ansibleInventoryThatFailsIsNamedWithItsStderr() throws IOException {
        Path fake = dir.resolve("ansible-inventory");
        Files.writeString(fake, "#!/bin/sh\necho 'ERROR! plugin aws_ec2: no credentials' >&2\nexit 1\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));

        assertThatThrownBy(
                        () -> InventorySources.fromAnsible(fake.toString(), List.of("aws_ec2.yml"), Optional.empty()))
                .isInstanceOf(InputException.class)
                .hasMessageContaining(fake + " -i aws_ec2.yml --list exited with 1")
                .hasMessageContaining("no credentials");
    }

    @Test
    void ansibleInventoryOutputIsReadAsTheListJson() throws IOException {
        Path fake = dir.resolve("ansible-inventory");
        Files.writeString(
                fake,
                "#!/bin/sh\ncat <<'J'\n{\"_meta\": {\"hostvars\": {\"c1\": {\"ansible_host\": \"10.9.0.1\"}}},"
                        + " \"all\": {\"children\": [\"tag_redis\"]}, \"tag_redis\": {\"hosts\": [\"c1\"]}}\nJ\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));

        Inventory inventory = InventorySources.fromAnsible(fake.toString(), List.of("aws_ec2.yml"), Optional.empty())
                .inventory();

        assertThat(inventory.host("c1").orElseThrow().address()).isEqualTo("10.9.0.1");
        assertThat(inventory.groups().get("tag_redis")).containsExactly("c1");
    }

    @Test
    void hostListsAreUngroupedHostsWithPorts() {
        Inventory inventory =
                InventorySources.load("r1, r2:2222,", Optional.empty()).inventory();

        assertThat(inventory.hosts()).extracting(Host::name).containsExactly("r1", "r2");
        assertThat(inventory.host("r2").orElseThrow().port()).isEqualTo(2222);
        assertThat(inventory.groups().get("ungrouped")).containsExactly("r1", "r2");
    }

    @Test
    void tenThousandIniHostsWithRangesLoad() throws IOException {
        StringBuilder ini = new StringBuilder("[redis]\n");
        for (int i = 0; i < 100; i++) {
            ini.append("redis-").append(i).append("-[000:099] redis_port=6380\n");
        }
        Path file = Files.writeString(dir.resolve("big.ini"), ini);

        Inventory inventory =
                InventorySources.load(file.toString(), Optional.empty()).inventory();

        assertThat(inventory.hosts()).hasSize(10_000);
        assertThat(Arrays.asList(inventory.hosts().get(9_999).name())).containsExactly("redis-99-099");
    }

    /**
     * Inventory and playbook group_vars/host_vars together. Expected values are what ansible-playbook
     * (ansible-core 2.14) printed for the same files with a debug task:
     * {@code a=pb-all b=inv-redis c=pb-redis g=pb-all h=pb-host}.
     */
    @Test
    void playbookVarsDirectoriesSitAboveTheInventorysByAnsiblePrecedence() throws IOException {
        Path inv = Files.createDirectories(dir.resolve("inv/group_vars"));
        Path pb = Files.createDirectories(dir.resolve("pb/group_vars"));
        Files.createDirectories(dir.resolve("pb/host_vars"));
        Files.writeString(dir.resolve("inv/hosts.ini"), "[redis]\nr1 h=inv-host\n[redis:vars]\ng=inv-group\n");
        Files.writeString(inv.resolve("all.yml"), "a: inv-all\nb: inv-all\nc: inv-all\n");
        Files.writeString(inv.resolve("redis.yml"), "b: inv-redis\n");
        Files.writeString(pb.resolve("all.yml"), "a: pb-all\nb: pb-all\nc: pb-all\ng: pb-all\n");
        Files.writeString(pb.resolve("redis.yml"), "c: pb-redis\n");
        Files.writeString(dir.resolve("pb/host_vars/r1.yml"), "h: pb-host\n");

        Host r1 = InventorySources.load(dir.resolve("inv/hosts.ini").toString(), Optional.of(dir.resolve("pb")))
                .inventory()
                .host("r1")
                .orElseThrow();

        assertThat(r1.vars())
                .containsEntry("a", "pb-all")
                .containsEntry("b", "inv-redis")
                .containsEntry("c", "pb-redis")
                .containsEntry("g", "pb-all")
                .containsEntry("h", "pb-host");
    }
}
