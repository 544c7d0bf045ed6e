package dev.fleetfix.report.manual;

import java.util.Map;

/**
 * The man page sections picocli's generator has no place for: Examples per command, and Environment, Files and See
 * also, added to the Asciidoctor source of each command's page before it becomes troff.
 */
public final class ManSections {
    private static final String END = "// end::picocli-generated-full-manpage[]";

    private ManSections() {}

    private static final Map<String, String> EXAMPLES = Map.of(
            "fleetfix",
            """
            fleetfix audit -i inventory.yml                  # THP and kernel facts per host, a verdict each
            fleetfix apply thp-off.yaml -i inventory.yml --check --diff
            fleetfix apply thp-off.yaml -i inventory.yml --report out/
            fleetfix doc restart_redis                       # a step's arguments
            """,
            "fleetfix-apply",
            """
            fleetfix apply playbooks/thp-off.yaml -i inventory.yml --check --diff   # what would change
            fleetfix apply playbooks/thp-off.yaml -i inventory.yml --list-hosts     # the hosts each play selects
            fleetfix apply playbooks/thp-off.yaml -i inventory.yml --limit 'redis:!redis-3' \\
                --window "Sat 01:00-05:00 Europe/Berlin" --report out/
            fleetfix apply playbooks/thp-off.yaml -i inventory.yml --format json > report.json
            fleetfix apply --resume fleetfix-runs/20261128T013000Z-3f9a1c07          # go on after a halt
            """,
            "fleetfix-audit",
            """
            fleetfix audit -i inventory.yml
            fleetfix audit -i inventory.yml --limit redis --format json | jq '.summary'
            fleetfix audit -i inventory.yml --format openmetrics -o /var/lib/prometheus/node-exporter/fleetfix.prom
            """,
            "fleetfix-bench",
            """
            fleetfix bench -i inventory.yml --limit redis-1 --rounds 3
            fleetfix bench -i inventory.yml --limit redis-1 --json
            """,
            "fleetfix-inventory",
            """
            fleetfix inventory -i inventory.yml --graph
            fleetfix inventory -i hosts.ini --list --limit 'redis:&prod'
            """,
            "fleetfix-doc",
            """
            fleetfix doc
            fleetfix doc restart_redis
            """);

    private static final String ENVIRONMENT =
            """
            == Environment

            *ANSIBLE_CONFIG*:: The ansible.cfg to read, before ./ansible.cfg, ~/.ansible.cfg and /etc/ansible/ansible.cfg.
            *ANSIBLE_INVENTORY*:: The default inventory when *-i* is not given (as ansible.cfg's inventory).
            *ANSIBLE_REMOTE_USER*, *ANSIBLE_PRIVATE_KEY_FILE*, *ANSIBLE_FORKS*, *ANSIBLE_HOST_KEY_CHECKING*, *ANSIBLE_TIMEOUT*, *ANSIBLE_BECOME*, *ANSIBLE_BECOME_METHOD*, *ANSIBLE_BECOME_USER*, *ANSIBLE_SSH_ARGS*:: As in Ansible, each beating its ansible.cfg setting.
            *ANSIBLE_STDOUT_CALLBACK*:: json (or ansible.posix.json) makes *apply --format json* the default.
            *SSH_AUTH_SOCK*:: The SSH agent, tried for keys.
            *NO_COLOR*:: When set, no ANSI colours (as *--no-color*).
            *FLEETFIX_JAVA_OPTS*:: Options for the Java virtual machine, given last by the fleetfix launcher (e.g. -Xmx2g).
            *JAVA_HOME*:: The Java the launcher runs (17 or later).
            """;

    private static final String FILES =
            """
            == Files

            *ansible.cfg*:: Read as Ansible reads it (ANSIBLE_CONFIG, ./ansible.cfg, ~/.ansible.cfg, /etc/ansible/ansible.cfg): inventory, remote_user, private_key_file, forks, host_key_checking, timeout, become, ssh_args, stdout_callback.
            *~/.ssh/config*:: The OpenSSH client configuration of every host (Host, HostName, User, Port, IdentityFile, ProxyJump); *-F* names another, *-F none* none.
            *~/.ssh/known_hosts*:: The host keys a host must match (*--known-hosts*, or a host's known_hosts_file); *--accept-new-host-keys* records new ones there.
            *fleetfix-runs/*:: In the current directory: one directory per apply run (unless *--run-dir* or *--report* names one), with the journal *--resume* reads.
            """;

    private static final String SEE_ALSO =
            """
            == See also

            *fleetfix*(1), *fleetfix-apply*(1), *fleetfix-audit*(1), *fleetfix-playbook*(5), *ansible-playbook*(1), *ssh_config*(5)
            """;

    /** The Examples section of each page that has one, by page name ({@code fleetfix-apply}): shell lines. */
    public static Map<String, String> examples() {
        return EXAMPLES;
    }

    /** {@code adoc}, the generated page of {@code page} ({@code fleetfix-apply}), with the sections added. */
    public static String addTo(String page, String adoc) {
        StringBuilder sections = new StringBuilder();
        String examples = EXAMPLES.get(page);
        if (examples != null) {
            sections.append("== Examples\n\n....\n").append(examples).append("....\n\n");
        }
        boolean connects = !page.startsWith("fleetfix-lab")
                && !page.startsWith("fleetfix-report")
                && !page.equals("fleetfix-completion")
                && !page.equals("fleetfix-doc");
        if (connects) {
            sections.append(ENVIRONMENT).append('\n').append(FILES).append('\n');
        }
        sections.append(SEE_ALSO).append('\n');
        int end = adoc.lastIndexOf(END);
        return end < 0 ? adoc + "\n" + sections : adoc.substring(0, end) + sections + adoc.substring(end);
    }
}
