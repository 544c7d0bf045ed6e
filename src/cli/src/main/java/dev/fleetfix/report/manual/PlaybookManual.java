package dev.fleetfix.report.manual;

import dev.fleetfix.playbook.StepDoc;
import java.util.Map;

/**
 * The {@code fleetfix-playbook(5)} man page as Asciidoctor source: the playbook format, written here, and the step
 * types with every argument, from the same catalogue that validates playbooks, so the page cannot drift from it.
 * The build turns it into troff beside the commands' pages.
 */
public final class PlaybookManual {
    private PlaybookManual() {}

    /**
     * @param steps the step types of the build, in the order to list them
     * @param version fleetfix's version, for the page's footer
     */
    public static String render(Map<String, StepDoc> steps, String version) {
        StringBuilder out = new StringBuilder();
        out.append(HEADER.replace("@VERSION@", version));
        out.append("== Step types\n\n");
        steps.forEach((name, doc) -> step(out, name, doc));
        out.append(TAIL);
        return out.toString();
    }

    private static void step(StringBuilder out, String name, StepDoc doc) {
        out.append("=== ").append(name).append("\n\n");
        out.append(lit(doc.summary())).append("\n\n");
        out.append("....\n").append(doc.example()).append("\n....\n\n");
        if (doc.args().isEmpty()) {
            out.append("No arguments.\n\n");
            return;
        }
        for (StepDoc.Arg arg : doc.args()) {
            // one line each (a hard break, " +", ends the first three)
            out.append('*').append(lit(arg.name())).append("*::\n");
            out.append(lit(arg.type()))
                    .append("; default: ")
                    .append(lit(arg.defaultValue()))
                    .append(" +\n");
            out.append(lit(arg.description())).append(" +\n");
            out.append("Example: `").append(lit(arg.example())).append("`\n\n");
        }
    }

    /** Catalogue text as it is: no Asciidoctor markup or attribute is read in it. */
    private static String lit(String text) {
        return "pass:c[" + text.replace("]", "\\]") + "]";
    }

    private static final String HEADER =
            """
            = fleetfix-playbook(5)
            :doctype: manpage
            :manmanual: Fleetfix Manual
            :mansource: fleetfix @VERSION@

            == Name

            fleetfix-playbook - the playbook format of fleetfix apply

            == Synopsis

            ....
            - name: THP off
              hosts: redis
              serial: [1, "50%"]
              max_fail_percentage: 0
              window: "Sat 01:00-05:00 Europe/Berlin"
              vars: {thp_mode: never}
              steps:
                - audit: {}
                - thp: {enabled: "{{ thp_mode }}", defrag: never}
                - persist_thp: {method: auto}
                - name: restart where Redis has not yet run under the change
                  restart_redis: {failover: auto, timeout: 120s}
                - wait_healthy: {timeout: 60s}
            ....

            == Description

            A playbook is a YAML file (read as YAML 1.1, as Ansible reads it) holding a list of plays. *fleetfix
            apply* runs the plays in order; each play runs its steps on its hosts, batch by batch. The playbook, the
            inventory and every template of every host are checked before any host is contacted: a mistake is
            refused with its file:line:column and exit code 2.

            == Plays

            *hosts*:: Required. A host pattern of the inventory, as Ansible writes it: a group or host name,
            `all`, `+web:&prod:!web-3+`, a wildcard. *--limit* narrows it further.
            *name*:: What the play is called in the output; the hosts pattern when not given.
            *serial*:: Batch sizes: a number, a percentage (`"50%"`) or a list of them, the last repeating
            (`[1, "50%"]`: one canary host, then half of the rest at a time). One batch of all hosts when not given.
            *max_fail_percentage*:: 0 to 100 (default 0): the play halts when more than this share of a batch
            fails, and no later batch starts.
            *vars*:: A mapping of variables for the play's templates, above the inventory's.
            *window*:: When changes are allowed: `"Sat 01:00-05:00 Europe/Berlin"`, `"Mon-Fri 22:00-02:00 UTC"`,
            `"daily 02:00-04:00"`. Outside it apply touches nothing; when it closes mid-run, hosts in flight finish and
            the rest wait for the next window. *--window* overrides it.
            *tags*:: Labels of the play (a word or a list), as in Ansible: *--tags* runs only the plays and steps that
            carry one of the given tags, *--skip-tags* leaves out those that do; a play's tags are its steps' too.
            Steps tagged `always` run unless skipped by name, `never` only when asked for.
            *steps*:: Required. The list of steps, run in order on each host.

            == Steps

            Each step is a mapping with one step type (below) as its key and the arguments as its value: a mapping
            (`- thp: {enabled: never}`), nothing (`- audit: {}`), or for *command* a bare string (`- command:
            "systemctl daemon-reload"`). Beside the type a step may carry:

            *name*:: What the step is called in the output and the reports; the type when not given.
            *when*:: A condition on the host's facts, as *assert* writes them (`+redis.restart_needed == yes+`,
            `+thp.enabled != never and init == systemd+`): the step is skipped where it does not hold.
            *tags*:: Labels of the step, as on plays.

            A step that changes a file backs it up first as FILE.fleetfix-RUN.bak. Facts set by a step (the audit's,
            a sysctl key, `redis.restart_needed`) are read by the later steps of the same host.

            == Templates

            Argument values may hold `{{ variable }}`, resolved per host from the play's *vars* and the inventory
            (host, group and `all` variables, group_vars/ and host_vars/ files). A variable that no layer defines
            refuses the playbook before any host is contacted. In shell text (*command*'s cmd and unless,
            *restart_redis*'s command) a value is quoted for the place it sits in, so it stays one inert string; where
            no quoting can keep it inert (arithmetic, `${...}`, a comment) the playbook is refused. A secret
            (`redis_password`) is never spliced into a command.

            """;

    private static final String TAIL =
            """
            == Examples

            The playbooks shipped with fleetfix: thp-off.yaml (audit, THP off now and at boot, restarts behind health
            gates), kernel-tuning.yaml (sysctl and redis_config, restarts only where a value needs one), audit.yaml
            (reads only), value-size-sweep.yaml (a benchmark sweep).

            ....
            fleetfix doc                      # the step types
            fleetfix doc restart_redis        # one step's arguments
            fleetfix apply thp-off.yaml -i inventory.yml --check --diff
            ....

            == See also

            *fleetfix*(1), *fleetfix-apply*(1), *ansible-playbook*(1)
            """;
}
