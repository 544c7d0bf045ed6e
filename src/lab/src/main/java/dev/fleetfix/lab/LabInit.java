package dev.fleetfix.lab;

/** What runs as PID 1 on a lab host. */
public enum LabInit {
    /** systemd, with Debian's units. */
    SYSTEMD,
    /**
     * A SysV-style init, as hosts of the seeds' era ran: runlevel 2's {@code /etc/rc2.d} start scripts
     * ({@code /etc/init.d/redis-server}, {@code /etc/init.d/ssh}), then {@code /etc/rc.local}; no systemd at all.
     */
    SYSV,
    /**
     * No init and no service manager: a host of the scale lab, an sshd and a Redis started by the scale container's
     * PID 1 script. Nothing can restart, stop or reboot it on its own.
     */
    NONE
}
