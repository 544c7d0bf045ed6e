package dev.fleetfix.lab;

import dev.fleetfix.transport.ScriptResource;

/**
 * What an operator did to a host that fleetfix did not build, as the shell steps the lab's first boot runs
 * ({@code /etc/fleetfix-lab/shape.sh}, before the host's Redis directives are merged into its config file): Redis
 * installed by {@code make install} and {@code install_server.sh}, a supervisord program, a named instance of
 * Debian's template unit, a tuned profile. The host's Redis directives themselves come from {@link LabRedisConf};
 * {@link #directives} adds those of the shape.
 */
final class LabOperatorShape {
    /** The tuned profile of a {@code tunedThp} host, activated with {@code tuned-adm profile} once it is up. */
    static final String TUNED_PROFILE = "redis-thp";

    private LabOperatorShape() {}

    /** The first-boot script of the host, or empty when it is built as the image has it. */
    static String script(LabHostSpec spec, LabHost host) {
        StringBuilder script = new StringBuilder();
        switch (spec.serviceShape()) {
            case INSTALL_SERVER -> script.append(installServer(host.address(), host.redisPort()));
            case SUPERVISORD -> script.append(supervisord());
            case COMPOSE -> script.append(LabComposeRedis.script(host));
            case DEBIAN_UNIT, DEBIAN_INSTANCE -> {}
        }
        if (spec.tunedThp()) {
            script.append(tuned());
        }
        if (spec.sudoPassword().isPresent() || spec.rootPassword().isPresent()) {
            script.append(becomeWithPassword(spec));
        }
        return script.isEmpty() ? "" : "set -euo pipefail\n" + script;
    }

    /**
     * An operator's login user, {@value LabHostSpec#OPS}, with the lab's key: with a sudo password, its sudo asks for it
     * (sudoers without NOPASSWD); with a root password, root has it, for su. The passwords go through chpasswd's
     * input, never a command line.
     */
    private static String becomeWithPassword(LabHostSpec spec) {
        String ops = LabHostSpec.OPS;
        StringBuilder script = new StringBuilder(
                """
                # a login user whose sudo (or su) asks for a password
                useradd --create-home --shell /bin/bash %1$s
                install -d -m 0700 -o %1$s -g %1$s /home/%1$s/.ssh
                install -m 0600 -o %1$s -g %1$s /home/fleetfix/.ssh/authorized_keys /home/%1$s/.ssh/authorized_keys
                """
                        .formatted(ops));
        spec.sudoPassword()
                .ifPresent(pw -> script.append(
                        """
                chpasswd <<'PW'
                %1$s:%2$s
                PW
                printf '%%s ALL=(ALL:ALL) ALL\\n' %1$s >/etc/sudoers.d/%1$s
                chmod 0440 /etc/sudoers.d/%1$s
                """
                                .formatted(ops, pw)));
        spec.rootPassword()
                .ifPresent(pw -> script.append(
                        """
                chpasswd <<'PW'
                root:%s
                PW
                """
                                .formatted(pw)));
        return script.toString();
    }

    /** Directives the shape's Redis needs besides the host's own, appended to its config file's. */
    static String directives(LabHostSpec spec, int port) {
        return switch (spec.serviceShape()) {
            case DEBIAN_UNIT, COMPOSE -> "";
            case DEBIAN_INSTANCE -> "pidfile /run/redis-" + LabServiceShape.INSTANCE + "/redis-server.pid\n"
                    + "logfile /var/log/redis/redis-server-" + LabServiceShape.INSTANCE + ".log\n";
            case INSTALL_SERVER -> "daemonize yes\n"
                    + "supervised no\n"
                    + "pidfile /var/run/redis_" + port + ".pid\n"
                    + "logfile /var/log/redis_" + port + ".log\n"
                    + "dir /var/lib/redis/" + port + "\n";
            case SUPERVISORD -> "daemonize no\nsupervised no\n";
        };
    }

    /**
     * make install's binaries in /usr/local/bin (copies of the image's), install_server.sh's config, data
     * directory and init script, enabled the SysV way; Debian's package never was: its units, init script and
     * config file go.
     */
    private static String installServer(String address, int port) {
        String conf = "/etc/redis/" + port + ".conf";
        return """
                # make install
                for tool in redis-server redis-cli redis-benchmark redis-check-aof redis-check-rdb; do
                  cp -L /usr/bin/$tool /usr/local/bin/$tool
                done
                # install_server.sh, port %2$d
                install -m 0644 /etc/redis/redis.conf %3$s
                mkdir -p /var/lib/redis/%2$d
                # a host Debian's redis-server package never was on
                rm -f /etc/redis/redis.conf /lib/systemd/system/redis-server.service \\
                  /lib/systemd/system/redis-server@.service /etc/init.d/redis-server
                rm -rf /etc/systemd/system/redis-server.service.d /etc/systemd/system/redis-server@.service.d
                rm -f /etc/rc[0-6S].d/[SK][0-9][0-9]redis-server
                cat >/etc/init.d/redis_%2$d <<'INIT'
                %4$sINIT
                chmod 0755 /etc/init.d/redis_%2$d
                """
                .formatted(address, port, conf, initScript(address, port, conf));
    }

    /**
     * An init script in the manner of Redis's {@code utils/redis_init_script}, with the LSB header that
     * {@code install_server.sh} adds: start and stop by pid file, and a {@code status} that always exits 0. It stops
     * Redis with {@code redis-cli shutdown} on the host's own address (the original uses 127.0.0.1, where no lab
     * host listens). Its body is {@code install-server-init.sh}; the header and the parameters come before it.
     */
    static String initScript(String address, int port, String conf) {
        return """
                #!/bin/sh
                # Redis server %1$d, installed from source.
                ### BEGIN INIT INFO
                # Provides:          redis_%1$d
                # Required-Start:    $network $local_fs $remote_fs
                # Required-Stop:     $network $local_fs $remote_fs
                # Default-Start:     2 3 4 5
                # Default-Stop:      0 1 6
                # Short-Description: start and stop redis_%1$d
                # Description:       Redis key-value store on port %1$d
                ### END INIT INFO

                """
                        .formatted(port)
                + ScriptResource.assign("HOST", address)
                + ScriptResource.assign("PORT", String.valueOf(port))
                + ScriptResource.assign("CONF", conf)
                + ScriptResource.read(LabOperatorShape.class, "install-server-init.sh");
    }

    /** Debian's supervisor, a program running Redis in the foreground as the redis user. */
    private static String supervisord() {
        return """
                cat >/etc/supervisor/conf.d/%1$s.conf <<'PROGRAM'
                [program:%1$s]
                command=/usr/bin/redis-server /etc/redis/redis.conf
                user=redis
                autostart=true
                autorestart=true
                stopwaitsecs=60
                PROGRAM
                """
                .formatted(LabServiceShape.PROGRAM);
    }

    /** A custom tuned profile setting THP always, and tuned enabled; tuned-adm activates it once the host is up. */
    private static String tuned() {
        return """
                mkdir -p /etc/tuned/%1$s
                cat >/etc/tuned/%1$s/tuned.conf <<'PROFILE'
                [main]
                summary=Redis hosts: transparent huge pages always

                [vm]
                transparent_hugepages=always
                PROFILE
                systemctl enable tuned >/dev/null 2>&1
                """
                .formatted(TUNED_PROFILE);
    }
}
