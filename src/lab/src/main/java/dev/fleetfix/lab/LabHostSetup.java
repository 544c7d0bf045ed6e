package dev.fleetfix.lab;

import java.nio.file.Path;

/**
 * What a host's first boot applies besides its keys and redis.conf ({@code fleetfix-lab-setup} in the image reads
 * it from the host's read-only {@code /etc/fleetfix-lab}): which config file and services are the host's Redis, an
 * old build with its unit drop-in, the instances' config files, a grub config.
 */
final class LabHostSetup {
    /** Where an old build is installed: before Debian's {@code /usr/bin/redis-server} on PATH, as a make install. */
    static final String OLD_BUILD_BINARY = "/usr/local/bin/redis-server";

    static final String OLD_BUILD_DROP_IN = "/etc/systemd/system/redis-server.service.d/20-fleetfix-lab-build.conf";

    static final String GRUB = "/etc/default/grub";

    private LabHostSetup() {}

    /**
     * The config file of instance {@code port}, as the setup script names it: {@code /etc/redis/redis-6380.conf},
     * which Debian's template unit {@code redis-server@6380} reads.
     */
    static String instanceConfig(LabServer server, int port) {
        String base = server.configPath();
        return base.substring(0, base.length() - ".conf".length()) + "-" + port + ".conf";
    }

    /** {@code host.env}: sourced by the setup script. */
    static String env(String labId, LabHostSpec spec, LabHost host) {
        StringBuilder env = new StringBuilder();
        env.append("LAB_ID=").append(labId).append('\n');
        env.append("LAB_HOST=").append(spec.name()).append('\n');
        env.append("LAB_ADDRESS=").append(host.address()).append('\n');
        env.append("LAB_SSH_PORT=").append(host.sshPort()).append('\n');
        // a named template instance's file is made from redis.conf by the setup, as instances/NAME.conf
        String conf = spec.serviceShape() == LabServiceShape.INSTALL_SERVER
                ? spec.serviceShape().configPath(spec.server(), host.redisPort())
                : spec.server().configPath();
        env.append("LAB_REDIS_CONF=").append(conf).append('\n');
        env.append("LAB_SERVICES=\"").append(String.join(" ", host.services())).append("\"\n");
        env.append("LAB_REDIS_CONF_REPLACE=")
                .append(spec.server().oldBuild() ? "yes" : "no")
                .append('\n');
        return env.toString();
    }

    /**
     * Writes the host's instance configs ({@code instances/PORT.conf}) and the files copied over its root at first
     * boot ({@code files/}).
     */
    static void write(LabHostSpec spec, LabHost host, LabHostFiles files) {
        Path etc = files.etc();
        String shape = LabOperatorShape.script(spec, host);
        if (!shape.isEmpty()) {
            LabHostFiles.write(etc.resolve("shape.sh"), shape);
        }
        if (host.redisPorts().size() > 1) {
            for (int port : host.redisPorts()) {
                LabHostFiles.write(
                        etc.resolve("instances").resolve(port + ".conf"),
                        LabRedisConf.instance(spec, host.address(), port));
            }
        }
        Path root = etc.resolve("files");
        spec.server().build().ifPresent(build -> {
            build.extract(under(root, OLD_BUILD_BINARY));
            LabHostFiles.write(under(root, OLD_BUILD_DROP_IN), oldBuildDropIn(spec.server()));
        });
        if (spec.grub()) {
            LabHostFiles.write(under(root, GRUB), grub());
        }
    }

    /**
     * Debian's unit runs {@code /usr/bin/redis-server --supervised systemd} as {@code Type=notify} and lets only
     * listed paths execute; an old build runs in the foreground and is listed.
     */
    static String oldBuildDropIn(LabServer server) {
        return """
                # fleetfix lab: Redis %s built outside Debian, installed as %s. It runs in the foreground and
                # does not talk to systemd (2.8 knows no 'supervised'), so Type=simple; Debian's unit lets only
                # listed paths execute (NoExecPaths=/).
                [Service]
                Type=simple
                PIDFile=
                ExecStart=
                ExecStart=%s /etc/redis/redis.conf
                ExecPaths=%s
                """
                .formatted(server.versionPrefix(), OLD_BUILD_BINARY, OLD_BUILD_BINARY, OLD_BUILD_BINARY);
    }

    static final String THP_LAUNCHER = "/usr/local/sbin/fleetfix-thp-launch";
    static final String THP_DROP_IN = "/etc/systemd/system/redis-server.service.d/30-fleetfix-real-thp.conf";

    /**
     * For a real-THP lab: Debian's Redis unit starts through {@link #launcher()}. Hosts with another
     * build or several instances keep their units, so their Redis sees the kernel's mode whatever
     * their THP file says; returns whether the host got the launcher.
     */
    static boolean writeThpLauncher(LabHostSpec spec, LabHost host, LabHostFiles files) {
        if (spec.server().oldBuild()
                || host.redisPorts().size() > 1
                || !host.services().contains("redis-server")) {
            return false;
        }
        Path root = files.etc().resolve("files");
        LabHostFiles.write(under(root, THP_LAUNCHER), launcher());
        LabHostFiles.write(under(root, THP_DROP_IN), thpDropIn());
        return true;
    }

    /**
     * Starts its arguments with THP disabled for the process (prctl PR_SET_THP_DISABLE, inherited across
     * exec) when this host's THP file reads {@code never}: the containers share this machine's kernel,
     * whose mode a real-THP lab sets to {@code always}, and the host's file is a bind-mounted copy the
     * kernel does not read. So the host's setting reaches its Redis the way a kernel's would.
     */
    static String launcher() {
        return """
                # fleetfix lab (real THP): start Redis as this host's THP setting would have the kernel start it.
                mode=
                for f in /sys/kernel/mm/transparent_hugepage/enabled \
                         /sys/kernel/mm/redhat_transparent_hugepage/enabled; do
                  if [ -r "$f" ]; then read -r mode < "$f" || true; break; fi
                done
                case "$mode" in
                  never|*"[never]"*)
                    # 157 is prctl on x86-64, 41 PR_SET_THP_DISABLE
                    exec /usr/bin/perl -e 'syscall(157, 41, 1, 0, 0, 0) == 0 or die "prctl PR_SET_THP_DISABLE: $!\n";
                      exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n"' -- "$@" ;;
                esac
                exec "$@"
                """;
    }

    /** Debian's ExecStart through the launcher; the unit's exec allow-list would refuse sh and perl. */
    static String thpDropIn() {
        return """
                # fleetfix lab (real THP): Redis starts through %s, which disables THP for its process
                # when this host's THP file reads never.
                [Service]
                NoExecPaths=
                ExecStart=
                ExecStart=/bin/sh %s /usr/bin/redis-server /etc/redis/redis.conf --supervised systemd --daemonize no
                """
                .formatted(THP_LAUNCHER, THP_LAUNCHER);
    }

    /** Debian's default {@code /etc/default/grub}: the lab's boot honours its kernel command line. */
    static String grub() {
        return """
                # If you change this file, run 'update-grub' afterwards to update
                # /boot/grub/grub.cfg.
                # For full documentation of the options in this file, see:
                #   info -f grub -n 'Simple configuration'

                GRUB_DEFAULT=0
                GRUB_TIMEOUT=5
                GRUB_DISTRIBUTOR=`lsb_release -i -s 2> /dev/null || echo Debian`
                GRUB_CMDLINE_LINUX_DEFAULT="quiet"
                GRUB_CMDLINE_LINUX=""
                """;
    }

    private static Path under(Path root, String absolute) {
        return root.resolve(absolute.substring(1));
    }
}
