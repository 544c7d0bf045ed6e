package dev.fleetfix.steps.restart;

import dev.fleetfix.transport.ScriptResource;
import java.util.Optional;

/**
 * The shell scripts that restart a Redis service and read its state, decided on the host when they run: systemd
 * ({@code systemctl restart}) when PID 1 is systemd and systemctl exists; else the SysV script {@code
 * /etc/init.d/<service>}; else {@code service <service> restart}. A systemd template instance ({@code
 * redis-server@b}) has no SysV script of its own. Or supervisord's {@code supervisorctl}. Each script is a resource
 * next to this class ({@code service-restart.sh}...), its parameters a preamble of quoted assignments.
 */
public final class ServiceRestart {
    /** A restart script's first line, so that a fake host can recognise it. */
    public static final String FIRST_LINE = "# fleetfix: restart the Redis service";

    /**
     * Waits, when the host's {@link PendingRestart} record was written in this second, for the next one. The record's
     * time is whole seconds: a Redis started in its second cannot be told from one started before the change, and
     * PendingRestart.clear keeps the record (and the next run restarts again). A replica restarts a few hundred ms
     * after persist_thp wrote it; so start in a later second.
     */
    private static final String LATER_SECOND = ScriptResource.assign("record", PendingRestart.PATH)
            + ScriptResource.read(ServiceRestart.class, "later-second.sh");

    private ServiceRestart() {}

    /** The script for {@code service} ({@code redis-server}, {@code valkey-server@6380}...). */
    public static String script(String service) {
        return FIRST_LINE + "\n" + LATER_SECOND + withService("service-restart.sh", service);
    }

    /**
     * Check mode: a script that exits 0 when {@link #script} could restart {@code service} on the host (systemd
     * knows the unit, or its SysV script is there), else non-zero saying why; it changes nothing. The {@code
     * service} fallback is not counted on: without a SysV script it has nothing to run on the init systems we know.
     */
    public static String checkScript(String service) {
        return withService("service-check.sh", service);
    }

    /**
     * A script that prints the service's state in systemd's words ({@code active}, {@code inactive}, {@code
     * failed}), or nothing when it cannot be told, on the init system {@link #script} would restart it with:
     * systemd's {@code ActiveState}; else the SysV script's {@code status}, read by the LSB exit codes.
     */
    public static String stateScript(String service) {
        return withService("service-state.sh", service);
    }

    /**
     * The script that restarts supervisord's {@code program} with {@code supervisorctl restart} ({@code -c CONF}
     * when supervisord runs with one); an answer that names an error fails it, since supervisorctl before 4.0 exits
     * 0 whatever happened.
     */
    public static String supervisorScript(String program, Optional<String> conf) {
        return FIRST_LINE + "\n" + LATER_SECOND + withProgram("supervisor-restart.sh", program, conf);
    }

    /** Check mode: exits 0 when supervisord knows {@code program}, else non-zero saying why; changes nothing. */
    public static String supervisorCheckScript(String program, Optional<String> conf) {
        return withProgram("supervisor-check.sh", program, conf);
    }

    /** {@link #stateScript} for a supervisord program: its supervisorctl status in systemd's words. */
    public static String supervisorStateScript(String program, Optional<String> conf) {
        return withProgram("supervisor-state.sh", program, conf);
    }

    /** The preamble that starts a restart in a later second than the host's restart record's. */
    static String laterSecond() {
        return LATER_SECOND;
    }

    /** Describes what restarts it, for results: "service redis-server". */
    public static String describe(String service) {
        return "service " + service;
    }

    private static String withService(String resource, String service) {
        return ScriptResource.assign("service", service) + ScriptResource.read(ServiceRestart.class, resource);
    }

    private static String withProgram(String resource, String program, Optional<String> conf) {
        return ScriptResource.assign("program", program)
                + ScriptResource.assign("conf", conf.orElse(""))
                + ScriptResource.read(ServiceRestart.class, resource);
    }
}
