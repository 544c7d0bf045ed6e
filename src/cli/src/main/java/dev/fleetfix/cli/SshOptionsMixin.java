package dev.fleetfix.cli;

import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import dev.fleetfix.inventory.ansible.SshConfig;
import dev.fleetfix.report.console.CommandEcho;
import dev.fleetfix.transport.CommandTimes;
import dev.fleetfix.transport.CommandTrace;
import dev.fleetfix.transport.ShellFactory;
import dev.fleetfix.transport.SshOptions;
import dev.fleetfix.transport.TransportException;
import dev.fleetfix.transport.held.HeldShells;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** SSH connection options shared by every command that reaches hosts. */
public final class SshOptionsMixin {

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--accept-new-host-keys",
            description = "Trust hosts seen for the first time and record their keys in known_hosts"
                    + " (OpenSSH accept-new). A changed key is always refused.")
    boolean acceptNewHostKeys;

    @Option(
            names = "--known-hosts",
            paramLabel = "FILE",
            description = "known_hosts file for hosts without known_hosts_file (default: ~/.ssh/known_hosts).")
    Path knownHosts;

    @Option(
            names = {"-T", "--timeout", "--connect-timeout"},
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = DurationConverter.SecondsByDefault.class,
            description = "How long connecting and logging in to a host may take: 10s, 500ms, 2m, or bare seconds"
                    + " as Ansible's -T 30 (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout = SshOptions.DEFAULT_CONNECT_TIMEOUT;

    @Option(
            names = "--key-passphrase-env",
            paramLabel = "VAR",
            description = "Environment variable holding the passphrase of encrypted private keys.")
    String passphraseEnv;

    @Option(
            names = "--control-persist",
            paramLabel = "DURATION",
            converter = DurationConverter.ControlPersist.class,
            description = "Keep each host's SSH connection open this long after the run, in a per-user holder"
                    + " process, so that the next run does not log in again (OpenSSH's ControlPersist: 60s, 10m,"
                    + " yes until 'fleetfix connections --close', no). Default: ssh_args' ControlPersist in"
                    + " ansible.cfg or ANSIBLE_SSH_ARGS, else no.")
    Duration controlPersist;

    /** Shells to the hosts; with {@code -v}, each command is echoed to stderr before it runs. */
    public ShellFactory shellFactory() {
        SshOptions options = toOptions();
        SshConfig sshConfig = environment().sshConfig();
        Optional<HeldShells> held = heldShells();
        boolean timeoutSet = given("--connect-timeout")
                || environment().config().get("defaults.timeout").isPresent();
        // StrictHostKeyChecking accept-new (or no), ConnectTimeout and CertificateFile in the ssh config apply to the
        // hosts it names only; the command line and ansible.cfg win over it.
        ShellFactory factory = host -> {
            SshOptions forHost = sshConfig.acceptsNewKeys(host) ? options.withAcceptNewHostKeys(true) : options;
            List<Path> certificates = sshConfig.certificateFiles(host);
            if (!certificates.isEmpty()) {
                forHost = forHost.withCertificateFiles(certificates);
            }
            if (!timeoutSet) {
                Optional<Integer> seconds = sshConfig.connectTimeoutSeconds(host);
                if (seconds.isPresent()) {
                    forHost = forHost.withConnectTimeout(Duration.ofSeconds(seconds.get()));
                }
            }
            return ShellFactories.create(forHost, held).open(host);
        };
        int verbosity = mixee == null ? 0 : FleetfixCommand.verbosity(mixee.commandLine());
        if (verbosity >= 3) {
            Clock clock = Clock.systemUTC();
            factory = CommandTimes.around(
                    factory, clock, TimesTrace.ofProcess(mixee.commandLine().getErr(), clock));
        }
        if (verbosity >= 1) {
            return CommandTrace.around(
                    factory, new CommandEcho(mixee.commandLine().getErr()));
        }
        return factory;
    }

    /**
     * {@code shells}, except for a host the ssh config routes through a ProxyCommand: that host fails, since a
     * direct connection would go around its bastion. Applied to every factory, given or SSH.
     */
    public ShellFactory refusingUnsupported(ShellFactory shells) {
        SshConfig sshConfig = environment().sshConfig();
        return host -> {
            Optional<String> refused = sshConfig.refusal(host);
            if (refused.isPresent()) {
                throw new TransportException(host, TransportException.Kind.UNSUPPORTED, refused.get(), null);
            }
            return shells.open(host);
        };
    }

    /** How long connections are held after the run: the option, else ssh_args' ControlPersist, else not at all. */
    Duration controlPersist() {
        if (controlPersist != null) {
            return controlPersist;
        }
        return environment().sshArgs().controlPersist().orElse(Duration.ZERO);
    }

    private Optional<HeldShells> heldShells() {
        Duration persist = controlPersist();
        if (persist.isZero()) {
            return Optional.empty();
        }
        PrintWriter err = mixee == null
                ? new PrintWriter(System.err, true)
                : mixee.commandLine().getErr();
        return Optional.of(new HeldShells(ShellFactories.holdClient(persist), warning -> {
            err.println("fleetfix: " + warning);
            err.flush();
        }));
    }

    public SshOptions toOptions() {
        AnsibleEnvironment ansible = environment();
        boolean acceptNew = acceptNewHostKeys;
        if (!acceptNew && !given("--accept-new-host-keys")) {
            Optional<String> origin = ansible.acceptNewFromConfig();
            if (origin.isPresent()) {
                acceptNew = true;
                PrintWriter err = mixee.commandLine().getErr();
                err.println("fleetfix: note: host_key_checking = False (" + origin.get() + "): unknown host keys are"
                        + " trusted on first use and recorded (accept-new); a changed key is still refused");
                err.flush();
            }
        }
        Duration timeout = connectTimeout;
        if (!given("--connect-timeout")) {
            timeout = ansible.config()
                    .positiveInt("defaults.timeout")
                    .map(Duration::ofSeconds)
                    .orElse(connectTimeout);
        }
        SshOptions options = new SshOptions(
                Optional.ofNullable(knownHosts),
                acceptNew,
                timeout,
                Optional.ofNullable(passphraseEnv).filter(v -> !v.isBlank()));
        if (options.passphraseEnv().isEmpty()) {
            // an encrypted key without --key-passphrase-env: asked for on the terminal, as ssh asks; never without one
            options = PromptOptions.terminalPrompt()
                    .map(options::withPassphrasePrompt)
                    .orElse(options);
        }
        return PromptOptions.askedPassword().map(options::withPassword).orElse(options);
    }

    private AnsibleEnvironment environment() {
        return mixee == null ? AnsibleEnvironment.none() : FleetfixCommand.environment(mixee.commandLine());
    }

    private boolean given(String option) {
        if (mixee == null || mixee.commandLine().getParseResult() == null) {
            return false;
        }
        return mixee.commandLine().getParseResult().hasMatchedOption(option);
    }
}
