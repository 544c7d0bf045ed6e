package dev.fleetfix.steps.restart;

import dev.fleetfix.transport.ShellQuote;
import java.util.Optional;

/**
 * The shell script that restarts a Redis service on any init system, decided on the host when it
 * runs: systemd ({@code systemctl restart}) when PID 1 is systemd and systemctl exists; else the
 * SysV script {@code /etc/init.d/<service>}; else {@code service <service> restart}. A systemd
 * template instance ({@code redis-server@b}) has no SysV script of its own.
 */
public final class ServiceRestart {
    private ServiceRestart() {}

    /** The script for {@code service} ({@code redis-server}, {@code valkey-server@6380}...). */
    public static String script(String service) {
        String q = ShellQuote.quote(service);
        String sysv = ShellQuote.quote("/etc/init.d/" + service);
        return String.join(
                "\n",
                laterSecond(),
                "if [ \"$(cat /proc/1/comm 2>/dev/null)\" = systemd ] && command -v systemctl >/dev/null 2>&1; then",
                "  systemctl restart " + q,
                "elif [ -x " + sysv + " ]; then",
                "  " + sysv + " restart",
                "elif command -v service >/dev/null 2>&1; then",
                "  service " + q + " restart",
                "else",
                "  echo 'no systemd, no '" + sysv + "' and no service command: cannot restart '" + q + " >&2",
                "  exit 1",
                "fi");
    }

    /**
     * Check mode: a script that exits 0 when {@link #script} could restart {@code service} on the host (systemd
     * knows the unit, or its SysV script is there), else non-zero saying why; it changes nothing. The {@code
     * service} fallback is not counted on: without a SysV script it has nothing to run on the init systems we know.
     */
    public static String checkScript(String service) {
        String sysv = ShellQuote.quote("/etc/init.d/" + service);
        return onInit(
                service,
                "systemctl cat -- " + ShellQuote.quote(service) + " >/dev/null",
                "true",
                "echo 'no systemd as PID 1 and no executable '" + sysv + " >&2; exit 1");
    }

    /**
     * A script that prints the service's state in systemd's words ({@code active}, {@code inactive}, {@code
     * failed}), or nothing when it cannot be told, on the init system {@link #script} would restart it with:
     * systemd's {@code ActiveState}; else the SysV script's {@code status}, read by the LSB exit codes (0
     * running, 1 and 2 dead with a pid or lock file left, 3 not running; 4 or anything else: unknown).
     */
    public static String stateScript(String service) {
        String sysv = ShellQuote.quote("/etc/init.d/" + service);
        return onInit(
                service,
                "systemctl show -p ActiveState --value " + ShellQuote.quote(service) + " 2>/dev/null",
                sysv + " status >/dev/null 2>&1\n"
                        + "  case $? in 0) echo active ;; 1 | 2) echo failed ;; 3) echo inactive ;; esac",
                "true");
    }

    /** Runs one of three commands: under systemd as PID 1, else with an executable SysV script, else neither. */
    private static String onInit(String service, String systemd, String sysv, String neither) {
        return String.join(
                "\n",
                "pid1=\"$(cat /proc/1/comm 2>/dev/null)\"",
                "if [ \"$pid1\" = systemd ] && command -v systemctl >/dev/null 2>&1; then",
                "  " + systemd,
                "elif [ -x " + ShellQuote.quote("/etc/init.d/" + service) + " ]; then",
                "  " + sysv,
                "else",
                "  " + neither,
                "fi");
    }

    /**
     * Waits, when the host's {@link PendingRestart} record was written in this second, for the next one. The record's
     * time is whole seconds: a Redis started in its second cannot be told from one started before the change, and
     * PendingRestart.clear keeps the record (and the next run restarts again). A replica restarts a few hundred ms
     * after persist_thp wrote it; so start in a later second.
     */
    private static String laterSecond() {
        String record = ShellQuote.quote(PendingRestart.PATH);
        return String.join(
                "\n",
                "since=$(sed -n 's/^since=//p' " + record + " 2>/dev/null | head -n 1)",
                "case \"$since\" in ''|*[!0-9]*) ;; *) n=0; while [ \"$(date +%s)\" -le \"$since\" ] && [ $n -lt 25 ];"
                        + " do sleep 0.1 2>/dev/null || sleep 1; n=$((n + 1)); done;; esac");
    }

    /** {@code supervisorctl}, with {@code -c CONF} when supervisord runs with one. */
    private static String supervisorctl(Optional<String> conf) {
        return "supervisorctl" + conf.map(c -> " -c " + ShellQuote.quote(c)).orElse("");
    }

    /**
     * The script that restarts supervisord's {@code program} with {@code supervisorctl restart}; an answer that
     * names an error fails it, since supervisorctl before 4.0 exits 0 whatever happened.
     */
    public static String supervisorScript(String program, Optional<String> conf) {
        return String.join(
                "\n",
                laterSecond(),
                "out=$(" + supervisorctl(conf) + " restart " + ShellQuote.quote(program) + " 2>&1); rc=$?",
                "printf '%s\\n' \"$out\" | head -c 4096",
                "case \"$out\" in *ERROR*|*'no such'*|*refused*) exit 1;; esac",
                "exit $rc");
    }

    /** Check mode: exits 0 when supervisord knows {@code program}, else non-zero saying why; changes nothing. */
    public static String supervisorCheckScript(String program, Optional<String> conf) {
        return "out=$(" + supervisorctl(conf) + " status " + ShellQuote.quote(program) + " 2>&1)\n"
                + "case \"$out\" in *RUNNING*|*STOPPED*|*EXITED*|*FATAL*|*BACKOFF*|*STARTING*) exit 0;; esac\n"
                + "printf '%s\\n' \"$out\" | head -c 1024 >&2; exit 1";
    }

    /** {@link #stateScript} for a supervisord program: its supervisorctl status in systemd's words. */
    public static String supervisorStateScript(String program, Optional<String> conf) {
        return supervisorctl(conf) + " status " + ShellQuote.quote(program) + " 2>/dev/null | head -n 1 | awk"
                + " '{ s = $2 } END { if (s == \"RUNNING\" || s == \"STARTING\") print \"active\";"
                + " else if (s == \"STOPPED\" || s == \"EXITED\") print \"inactive\";"
                + " else if (s == \"FATAL\" || s == \"BACKOFF\") print \"failed\" }'";
    }

    /** Describes what restarts it, for results: "service redis-server". */
    public static String describe(String service) {
        return "service " + service;
    }
}
