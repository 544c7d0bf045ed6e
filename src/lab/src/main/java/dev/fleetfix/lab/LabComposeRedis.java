package dev.fleetfix.lab;

/**
 * A lab host whose Redis is a {@code docker compose} service, as operators run Redis on a Docker host (issue 39): the
 * project's file {@value #DIR}/docker-compose.yml (service {@value #SERVICE}, its data on a named volume), its name in
 * {@code .env}, and a unit, {@value #UNIT}, that brings it up with Debian's {@code docker-compose} (v1, in the lab
 * image) at every boot, so its containers carry compose's labels. Made by the host's first boot; the host needs {@link
 * LabHostSpec#dockerCli}. As {@link LabRedisContainer}'s, the container is a sibling of the lab host on this machine's
 * dockerd that shares the lab host's PID namespace and network and binds its address: inside the lab host, {@code ss
 * -ltnp}, {@code /proc/PID/cgroup} and the docker CLI show what a Docker host shows. Since it dies with that PID
 * namespace when the lab host reboots, the unit brings it up again at boot (an operator's unit would too, for a
 * project started without a restart policy). The project is named after the lab host's container, unique on this
 * machine; the lab removes its container and volume by their label.
 */
public final class LabComposeRedis {
    /** The project's directory on the lab host. */
    public static final String DIR = "/srv/redis";
    /** The compose service that runs Redis. */
    public static final String SERVICE = "cache";
    /** The unit that runs {@code docker-compose up -d} in {@value #DIR} at boot. */
    static final String UNIT = "redis-compose";

    private LabComposeRedis() {}

    /** The compose project of lab host {@code host}: {@code fleetfix-lab-ID-HOST}, as the lab host's container. */
    public static String project(LabFleet fleet, String host) {
        return LabBuilder.containerName(fleet.id(), fleet.host(host).name());
    }

    /**
     * The first-boot script: the project's files and its unit. The image is the lab host's own (it has redis-server:
     * nothing is pulled), asked of dockerd by the lab host's container name.
     */
    static String script(LabHost host) {
        return """
                # Redis as a docker compose service (LabComposeRedis)
                . /etc/fleetfix-lab/host.env
                lab="fleetfix-lab-$LAB_ID-$LAB_HOST"
                image="$(docker inspect --format '{{.Config.Image}}' "$lab")"
                mkdir -p %1$s
                printf 'COMPOSE_PROJECT_NAME=%%s\\n' "$lab" >%1$s/.env
                cat >%1$s/docker-compose.yml <<COMPOSE
                services:
                  %2$s:
                    image: $image
                    network_mode: host
                    # the lab host's PID namespace: the lab host is itself a container
                    pid: "container:$lab"
                    command: [%3$s]
                    volumes:
                      - data:/data
                    labels:
                      %4$s: "$LAB_ID"
                volumes:
                  data:
                    labels:
                      %4$s: "$LAB_ID"
                COMPOSE
                cat >/etc/systemd/system/%5$s.service <<'UNIT'
                %6$sUNIT
                """
                .formatted(DIR, SERVICE, command(host), LabRedisContainer.LABEL, UNIT, unit());
    }

    /** Redis's command line in the container: the host's address and port, its data in the volume's /data. */
    private static String command(LabHost host) {
        return String.join(
                ", ",
                "redis-server",
                "--bind",
                host.address(),
                "--port",
                "\"" + host.redisPort() + "\"",
                "--dir",
                "/data",
                "--save",
                "\"3600 1 300 100 60 10000\"",
                "--appendonly",
                "\"no\"",
                "--disable-thp",
                "\"yes\"",
                "--enable-debug-command",
                "local",
                "--protected-mode",
                "\"no\"",
                "--daemonize",
                "\"no\"");
    }

    /** The unit that brings the project up at boot, and stops it (Redis saves) at shutdown. */
    private static String unit() {
        return """
                [Unit]
                Description=Redis, the docker compose project in %1$s
                After=network.target fleetfix-lab-setup.service

                [Service]
                Type=oneshot
                RemainAfterExit=yes
                WorkingDirectory=%1$s
                ExecStart=/usr/bin/docker-compose up -d
                ExecStop=/usr/bin/docker-compose stop
                TimeoutStartSec=120

                [Install]
                WantedBy=multi-user.target
                """
                .formatted(DIR);
    }
}
