package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabOperatorShapeTest {
    private static final LabHost HOST = new LabHost(
            "lab-1",
            "127.0.0.11",
            22,
            6379,
            OptionalInt.empty(),
            List.of(6379),
            LabServer.REDIS_7_0,
            LabInit.SYSTEMD,
            LabServiceShape.INSTALL_SERVER);

    @Test
    void installServerHostGetsASysvScriptWhoseStatusAlwaysExitsZero(@TempDir Path dir) throws Exception {
        String script = LabOperatorShape.initScript("127.0.0.11", 6379, "/etc/redis/6379.conf");
        assertThat(script)
                .contains("# Provides:          redis_6379", "# Default-Start:     2 3 4 5")
                .contains("PIDFILE=/var/run/redis_$PORT.pid", "CONF=/etc/redis/6379.conf")
                // the lab host's own address: no lab Redis listens on 127.0.0.1
                .contains("$CLI -h \"$HOST\" -p \"$PORT\" shutdown", "HOST=127.0.0.11");
        Path file = dir.resolve("redis_6379");
        Files.writeString(file, script);
        // no pid file on this machine: Redis is not running, and status says so with exit code 0
        Process status = new ProcessBuilder("/bin/sh", file.toString(), "status")
                .redirectErrorStream(true)
                .start();
        String out = new String(status.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(status.waitFor()).as(out).isZero();
        assertThat(out).contains("redis_6379 is not running");
    }

    @Test
    void eachShapeMakesItsConfigFileAndServiceAsAnOperatorWould() {
        LabHostSpec installServer = LabHostSpec.builder("lab-1")
                .serviceShape(LabServiceShape.INSTALL_SERVER)
                .build();
        assertThat(LabOperatorShape.script(installServer, HOST))
                .startsWith("set -euo pipefail\n")
                .contains(
                        "cp -L /usr/bin/$tool /usr/local/bin/$tool",
                        "install -m 0644 /etc/redis/redis.conf /etc/redis/6379.conf")
                .contains("rm -f /etc/redis/redis.conf /lib/systemd/system/redis-server.service")
                .contains("cat >/etc/init.d/redis_6379 <<'INIT'", "chmod 0755 /etc/init.d/redis_6379");
        assertThat(LabOperatorShape.directives(installServer, 6379))
                .contains("daemonize yes\n", "pidfile /var/run/redis_6379.pid\n", "dir /var/lib/redis/6379\n");
        assertThat(LabHostSetup.env("ab12", installServer, HOST))
                .contains("LAB_REDIS_CONF=/etc/redis/6379.conf\n", "LAB_SERVICES=\"redis_6379\"\n");

        LabHostSpec supervised = LabHostSpec.builder("lab-2")
                .serviceShape(LabServiceShape.SUPERVISORD)
                .build();
        assertThat(LabOperatorShape.script(supervised, HOST))
                .contains("[program:redis]", "command=/usr/bin/redis-server /etc/redis/redis.conf");
        assertThat(LabOperatorShape.directives(supervised, 6379)).contains("daemonize no\n");
        assertThat(LabServiceShape.SUPERVISORD.services(LabServer.REDIS_7_0, List.of(6379)))
                .containsExactly("supervisor");

        LabHostSpec instance = LabHostSpec.builder("lab-3")
                .serviceShape(LabServiceShape.DEBIAN_INSTANCE)
                .build();
        assertThat(LabOperatorShape.script(instance, HOST)).isEmpty();
        assertThat(LabOperatorShape.directives(instance, 6379)).contains("pidfile /run/redis-main/redis-server.pid\n");
        assertThat(LabServiceShape.DEBIAN_INSTANCE.services(LabServer.REDIS_7_0, List.of(6379)))
                .containsExactly("redis-server@main");

        LabHostSpec tuned = LabHostSpec.builder("lab-4").tunedThp(true).build();
        assertThat(LabOperatorShape.script(tuned, HOST))
                .contains("/etc/tuned/redis-thp/tuned.conf", "[vm]\ntransparent_hugepages=always\n")
                .contains("systemctl enable tuned");
        assertThat(LabOperatorShape.script(LabHostSpec.named("lab-5"), HOST)).isEmpty();
    }
}
