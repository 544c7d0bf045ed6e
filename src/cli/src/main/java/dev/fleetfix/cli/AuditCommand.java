package dev.fleetfix.cli;

import dev.fleetfix.Sleeper;
import dev.fleetfix.checks.AuditSummary;
import dev.fleetfix.checks.FleetAuditor;
import dev.fleetfix.checks.HostAudit;
import dev.fleetfix.checks.HostAuditor;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.inventory.HostSelection;
import dev.fleetfix.report.console.AuditTable;
import dev.fleetfix.report.console.HostList;
import dev.fleetfix.report.console.LiveLine;
import dev.fleetfix.report.console.Screen;
import dev.fleetfix.report.files.AuditJson;
import dev.fleetfix.report.files.AuditOpenMetrics;
import dev.fleetfix.report.files.ReportFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code fleetfix audit}: THP, kernel and Redis facts per host, a verdict and its reasons. Reads only. */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = {
            "Audits each host for Transparent Huge Pages and the kernel settings that hurt Redis.",
            "Reads THP now and at boot, vm.overcommit_memory, net.core.somaxconn against tcp-backlog, Redis's",
            "disable-thp and huge pages: one command and one Redis connection per host; nothing is changed."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  every host is ok",
            "  1  a host is at risk or unreachable",
            "  2  bad usage or bad input; no host was touched"
        })
final class AuditCommand extends HostsCommand implements Callable<Integer>, JsonOutput {
    AuditCommand(Adapters adapters) {
        super(adapters);
    }

    /** What the audit prints. */
    enum Format {
        TABLE,
        JSON,
        OPENMETRICS
    }

    /** {@code table}, {@code json}, {@code openmetrics}: what completion offers. */
    static final class Formats extends EnumWords<Format> {
        Formats() {
            super(Format.class);
        }
    }

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            completionCandidates = Formats.class,
            description = "table (default), json (docs/json.md; an error too is then a JSON document on stdout), or"
                    + " openmetrics (gauges for node_exporter's textfile collector; names in docs/audit.md).")
    Format format;

    /** {@code expanded}, {@code compact}: what completion offers for --openmetrics-states. */
    static final class StateStyles extends EnumWords<AuditOpenMetrics.States> {
        StateStyles() {
            super(AuditOpenMetrics.States.class);
        }
    }

    @Option(
            names = "--openmetrics-states",
            paramLabel = "STYLE",
            completionCandidates = StateStyles.class,
            defaultValue = "expanded",
            description = "With --format openmetrics: expanded (default; one series per possible value of a state, "
                    + "1 for the current one and 0 for the others, the documented contract) or compact (the current "
                    + "value only, as node_exporter writes enums: about a quarter of the series).")
    AuditOpenMetrics.States openMetricsStates;

    @Option(names = "--json", description = "Same as --format json.")
    boolean json;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write to FILE (through a temporary file and a rename, readable by all) instead of "
                    + "standard output; the exit code is the same.")
    Path output;

    @Override
    public boolean jsonAsked() {
        return json || format == Format.JSON;
    }

    @Override
    public Integer call() {
        if (json && format != null && format != Format.JSON) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--json and --format " + format.name().toLowerCase(java.util.Locale.ROOT) + " contradict");
        }
        Format chosen = json ? Format.JSON : format == null ? Format.TABLE : format;
        if (output != null) {
            ReportFiles.checkWritable(output, "--output");
        }
        HostSelection selected = FleetfixCommand.inventoryService(spec.commandLine())
                .load(inventory.source(), inventory.limit(), Optional.empty());
        List<Host> hosts = shards.narrow(selected, adapters.redis(), forks.forks(), !inventory.listHosts())
                .hosts();
        PrintWriter out = spec.commandLine().getOut();
        if (inventory.listHosts()) {
            HostList.print(hosts, out);
            return ExitCode.OK;
        }
        // what the audit cannot evaluate (a host's connection or Redis variables) stops it before any host is asked
        hosts.forEach(Host::requireUsable);
        // no ShellPool: the auditor opens and closes each host's shell itself, so open connections stay
        // bounded by --forks rather than by the fleet's size
        FleetAuditor auditor =
                new FleetAuditor(new HostAuditor(), adapters.shells(ssh), adapters.redis(), forks.forks());
        // hosts that take long to answer: a live line on stderr (stdout carries the table or document only)
        LiveLine live = new LiveLine(spec.commandLine().getErr(), Screens.of());
        List<HostAudit> audits;
        Instant started = adapters.clock().instant();
        try {
            audits = auditor.audit(
                    hosts,
                    live.listener("fleet", adapters.clock(), adapters.clock().instant()),
                    // beats in real time, for people; what it tells reads the run's clock, so on a test's fake clock
                    // (which the heartbeat must not drive) the audit never lasts long enough to show a line
                    Sleeper.system());
        } finally {
            live.clear();
        }
        String text = render(chosen, audits, started);
        if (output != null) {
            ReportFiles.writeWorldReadable(output, text);
        } else {
            out.print(text);
            out.flush();
        }
        return AuditSummary.of(audits).allOk() ? ExitCode.OK : ExitCode.FINDINGS;
    }

    /** The audits as the chosen format prints them. */
    private String render(Format chosen, List<HostAudit> audits, Instant started) {
        return switch (chosen) {
            case TABLE -> AuditTable.render(audits, output == null ? Screens.of() : Screen.pipe());
            case JSON -> AuditJson.render(
                    audits, VersionProvider.version(), adapters.clock().instant());
            case OPENMETRICS -> AuditOpenMetrics.render(
                    audits,
                    new AuditOpenMetrics.Run(
                            started, Duration.between(started, adapters.clock().instant()), VersionProvider.version()),
                    openMetricsStates);
        };
    }
}
