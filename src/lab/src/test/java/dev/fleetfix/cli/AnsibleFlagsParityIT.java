package dev.fleetfix.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code ansible-playbook} (Debian 12's ansible-core, installed by {@code src/lab/src/lab/prepare.sh}) and fleetfix,
 * given the same flags on the same inventory: the hosts selected, and the variable each host sees, must agree.
 *
 * <p>Both run a play of one step on three hosts with {@code ansible_connection=local}: each host writes the value of
 * {@code wanted} it sees into a file named after it, with the same {@code printf}: Ansible's in a {@code raw} task
 * (a shell command, where {@code copy} would start a Python interpreter per task and host: a third of the class's
 * CPU), fleetfix's in a {@code command} step.
 * So what is compared is what each tool really did, not what it says it would do. Ansible runs with an empty
 * ansible.cfg, no {@code ANSIBLE_*} variables and a temporary HOME. It fails, never skips, without Ansible.
 */
class AnsibleFlagsParityIT {
    @TempDir
    Path dir;

    private Path inventory;
    private Path ansiblePlay;
    private Path fleetfixPlay;
    private Path out;

    @BeforeEach
    void sameInputs() throws IOException {
        out = Files.createDirectories(dir.resolve("out"));
        inventory = Files.writeString(
                dir.resolve("hosts.ini"),
                """
                [redis]
                r1
                r2
                r3

                [cache]
                r3

                [all:vars]
                ansible_connection=local
                ansible_python_interpreter=/usr/bin/python3
                wanted=inventory

                [cache:vars]
                wanted=group
                """);
        ansiblePlay = Files.writeString(dir.resolve("ansible.yml"), ANSIBLE_PLAY.formatted(out.resolve("ansible")));
        fleetfixPlay = Files.writeString(dir.resolve("fleetfix.yml"), FLEETFIX_PLAY.formatted(out.resolve("fleetfix")));
        Files.createDirectories(out.resolve("ansible"));
        Files.createDirectories(out.resolve("fleetfix"));
    }

    /** A play of four recording tasks: each host writes the {@code wanted} it sees to a file under {@code %1$s}. */
    private static final String ANSIBLE_PLAY =
            """
                - name: record
                  hosts: redis
                  gather_facts: false
                  vars:
                    wanted: play
                  tags: [play]
                  tasks:
                    - name: record wanted
                      raw: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}"
                      tags: [rec]
                    - name: record other
                      raw: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}.other"
                      tags: other
                    - name: record never
                      raw: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}.never"
                      tags: [never, debug]
                    - name: record always
                      raw: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}.always"
                      tags: [always]
                """;

    /** The same play as fleetfix writes it. */
    private static final String FLEETFIX_PLAY =
            """
                - name: record
                  hosts: redis
                  vars:
                    wanted: play
                  tags: [play]
                  steps:
                    - name: record wanted
                      command: {cmd: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}", become: false}
                      tags: [rec]
                    - name: record other
                      command: {cmd: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}.other", become: false}
                      tags: other
                    - name: record never
                      command: {cmd: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}.never", become: false}
                      tags: [never, debug]
                    - name: record always
                      command: {cmd: "printf %%s {{ wanted }} > %1$s/{{ inventory_hostname }}.always", become: false}
                      tags: [always]
                """;

    @Test
    void ansibleIsTheOneOfDebian12() {
        ProgramRun version = ansible("ansible-playbook", "--version");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.stdout())
                .as("install ansible-core: bash src/lab/src/lab/prepare.sh")
                .contains("[core 2.14.");
    }

    @Test
    void limitExtraVarsAndTagsSelectTheSameHostsStepsAndValues() throws Exception {
        Path json = Files.writeString(dir.resolve("vars.json"), "{\"wanted\": \"from-json-file\"}");
        Path yaml = Files.writeString(dir.resolve("vars.yml"), "wanted: from-yaml-file\n");
        List<List<String>> cases = List.of(
                List.of(),
                List.of("-l", "r1:r3"),
                List.of("--limit", "redis:!cache"),
                List.of("-l", "cache"),
                List.of("-e", "wanted=key-value"),
                List.of("-e", "wanted=first other=x", "-e", "wanted=second"),
                List.of("-e", "{\"wanted\": \"json\"}"),
                List.of("-e", "{wanted: yaml}"),
                List.of("-e", "@" + json),
                List.of("--extra-vars", "@" + yaml, "-l", "r2"),
                List.of("--tags", "rec"),
                List.of("-t", "other,debug"),
                List.of("--skip-tags", "other"),
                List.of("--skip-tags", "always", "--tags", "rec"),
                List.of("--tags", "never"),
                List.of("--tags", "play"),
                List.of("--tags", "untagged"),
                List.of("--tags", "tagged", "--skip-tags", "rec"));
        // each case writes under its own directory, so Ansible's runs (seconds each, mostly its start-up) go three at
        // a time beside fleetfix's, which run one after the other in this JVM
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<ProgramRun>> ansibleRuns = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                Path caseDir = Files.createDirectories(dir.resolve("case-" + i));
                Path play = Files.writeString(
                        caseDir.resolve("ansible.yml"),
                        ANSIBLE_PLAY.formatted(Files.createDirectories(caseDir.resolve("ansible"))));
                List<String> a = new ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString(), "-f", "1"));
                a.addAll(cases.get(i));
                a.add(play.toString());
                ansibleRuns.add(pool.submit(() -> ansible(caseDir.resolve("scratch"), a.toArray(String[]::new))));
            }
            for (int i = 0; i < cases.size(); i++) {
                List<String> flags = cases.get(i);
                Path caseDir = dir.resolve("case-" + i);
                Path play = Files.writeString(
                        caseDir.resolve("fleetfix.yml"),
                        FLEETFIX_PLAY.formatted(Files.createDirectories(caseDir.resolve("fleetfix"))));
                // one at a time (-f 1): the three hosts are this one machine, whose host lock they would race for
                List<String> f =
                        new ArrayList<>(List.of("apply", play.toString(), "-i", inventory.toString(), "-f", "1"));
                f.addAll(flags);
                CliRun fleetfix = CliRun.of(f.toArray(String[]::new));
                assertThat(fleetfix.exitCode()).as(fleetfix.toString()).isZero();

                ProgramRun ansible = ansibleRuns.get(i).get();
                assertThat(ansible.exitCode()).as(ansible.toString()).isZero();
                Map<String, String> seenByAnsible = written(caseDir.resolve("ansible"));
                assertThat(seenByAnsible)
                        .as("ansible wrote something for " + flags)
                        .isNotEmpty();
                assertThat(written(caseDir.resolve("fleetfix")))
                        .as("host -> wanted, with " + flags + "\n" + fleetfix)
                        .isEqualTo(seenByAnsible);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void listHostsListsTheSameHosts() {
        for (List<String> flags : List.of(List.<String>of(), List.of("-l", "r1:r3"), List.of("-l", "redis:&cache"))) {
            List<String> a = new ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString(), "--list-hosts"));
            a.addAll(flags);
            a.add(ansiblePlay.toString());
            ProgramRun ansible = ansible(a.toArray(String[]::new));
            assertThat(ansible.exitCode()).as(ansible.toString()).isZero();

            List<String> f = new ArrayList<>(
                    List.of("apply", fleetfixPlay.toString(), "-i", inventory.toString(), "--list-hosts"));
            f.addAll(flags);
            CliRun fleetfix = CliRun.of(f.toArray(String[]::new));
            assertThat(fleetfix.exitCode()).as(fleetfix.toString()).isZero();
            // Ansible 2.14 lists a play's hosts in no stable order (r2, r1, r3 here); fleetfix in inventory order
            assertThat(listedHosts(fleetfix.stdout()))
                    .as(flags + "\n" + ansible + "\n" + fleetfix)
                    .isNotEmpty()
                    .containsExactlyInAnyOrderElementsOf(listedHosts(ansible.stdout()));
        }
    }

    @Test
    void listTasksAndListTagsListTheSameStepsAndTags() {
        for (List<String> flags : List.of(
                List.of("--list-tasks"),
                List.of("--list-tasks", "--tags", "debug"),
                List.of("--list-tasks", "--skip-tags", "rec,always"),
                List.of("--list-tags"),
                List.of("--list-tags", "--tags", "other"))) {
            List<String> a = new ArrayList<>(List.of("ansible-playbook", "-i", inventory.toString()));
            a.addAll(flags);
            a.add(ansiblePlay.toString());
            ProgramRun ansible = ansible(a.toArray(String[]::new));
            assertThat(ansible.exitCode()).as(ansible.toString()).isZero();

            List<String> f = new ArrayList<>(List.of("apply", fleetfixPlay.toString(), "-i", inventory.toString()));
            f.addAll(flags);
            CliRun fleetfix = CliRun.of(f.toArray(String[]::new));
            assertThat(fleetfix.exitCode()).as(fleetfix.toString()).isZero();
            assertThat(listing(fleetfix.stdout()))
                    .as(flags + "\n" + ansible + "\n" + fleetfix)
                    .isNotEmpty()
                    .isEqualTo(listing(ansible.stdout()));
        }
    }

    /** The task and tag lines of a listing, without the playbook's own path: what both tools must agree on. */
    static List<String> listing(String printed) {
        List<String> lines = new ArrayList<>();
        for (String line : printed.split("\n")) {
            if (line.startsWith("      ") && !line.isBlank() || line.strip().startsWith("TASK TAGS:")) {
                lines.add(line.strip());
            }
        }
        return lines;
    }

    /** The names under each "hosts (N):" line, as both tools print them. */
    static List<String> listedHosts(String listing) {
        List<String> hosts = new ArrayList<>();
        boolean inHosts = false;
        for (String line : listing.split("\n")) {
            if (line.strip().matches("hosts \\(\\d+\\):")) {
                inHosts = true;
            } else if (inHosts && line.startsWith("      ") && !line.isBlank()) {
                hosts.add(line.strip());
            } else {
                inHosts = false;
            }
        }
        return hosts;
    }

    private static Map<String, String> written(Path where) throws IOException {
        Map<String, String> seen = new TreeMap<>();
        try (Stream<Path> files = Files.list(where)) {
            for (Path file : files.toList()) {
                seen.put(file.getFileName().toString(), Files.readString(file));
            }
        }
        return seen;
    }

    private ProgramRun ansible(String... command) {
        return ansible(dir.resolve("ansible"), command);
    }

    /** Ansible with {@code scratch} as its home and temporary directory, apart from any other run's. */
    private ProgramRun ansible(Path scratch, String... command) {
        return ProgramRun.ansible(
                dir,
                scratch,
                Map.of("ANSIBLE_LOCAL_TEMP", scratch.resolve("tmp").toString(), "ANSIBLE_NOCOLOR", "1"),
                List.of(command));
    }
}
