package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** discovery.sh run on this machine, with an {@code ss} that shows what hosts sharing one network namespace show. */
class DiscoveryScriptTest {
    @TempDir
    Path dir;

    /**
     * Lab hosts and containers on the host network all listen on the same port, each at its own address: their sockets
     * (older, so with smaller inodes) once filled the script's bounds, and the host's own socket went unmapped to its
     * process ("no process of this host holds one").
     */
    @Test
    void theHostsOwnSocketIsMappedToItsProcessAmongManyAtOtherAddresses() throws Exception {
        Optional<Path> realSs = Optional.ofNullable(System.getenv("PATH")).stream()
                .flatMap(p -> List.of(p.split(":")).stream())
                .map(d -> Path.of(d, "ss"))
                .filter(Files::isExecutable)
                .findFirst();
        assertThat(realSs)
                .as("iproute2's ss on this machine (this test needs it: apt-get install iproute2)")
                .isPresent();
        try (ServerSocket own = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = own.getLocalPort();
            String others = IntStream.rangeClosed(1, 24)
                    .mapToObj(n -> "LISTEN 0 511 127.0.1." + n + ":" + port + " 0.0.0.0:* ino:" + n + " sk:" + n)
                    .collect(Collectors.joining("\\n"));
            Path ss = dir.resolve("ss");
            Files.writeString(ss, "#!/bin/sh\nprintf '" + others + "\\n'\nexec " + realSs.get() + " \"$@\"\n");
            Files.setPosixFilePermissions(ss, PosixFilePermissions.fromString("rwx------"));
            long pid = ProcessHandle.current().pid();
            RedisSelf self =
                    new RedisSelf(port, Optional.empty(), OptionalLong.of(pid), Optional.empty(), Optional.empty());

            String out = run(ServiceDiscovery.script("127.0.0.1", List.of(port), self));

            assertThat(out).as("the script sees every socket").contains("sockets=25");
            RunningService found = ServiceDiscovery.decide(out, "127.0.0.1", List.of(port), Optional.empty())
                    .get(0);
            assertThat(found.pid()).as(out).hasValue(pid);
        }
    }

    /**
     * Only the process of the socket at the host's address is detailed (its command line, cgroup, parents, pid files
     * and init scripts: dozens of short processes on the host each). On 500 lab hosts sharing one network namespace,
     * every audit detailed 16 other hosts' Redis as well: 1,200 processes and 4 s of CPU a host, and at 100 hosts at
     * once every host's command timed out.
     */
    @Test
    void otherAddressesListenersAreCountedButNotDetailed() throws Exception {
        try (ServerSocket own = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = own.getLocalPort();
            List<Process> others = new java.util.ArrayList<>();
            try {
                for (int n = 1; n <= 3; n++) {
                    others.add(new ProcessBuilder(
                                    "python3",
                                    "-c",
                                    "import socket, sys, time\n"
                                            + "s = socket.socket(); s.bind(('127.0.1." + n + "', " + port + "))\n"
                                            + "s.listen(1); print('up', flush=True); time.sleep(60)")
                            .redirectError(ProcessBuilder.Redirect.DISCARD)
                            .start());
                }
                for (Process p : others) {
                    assertThat(new String(p.getInputStream().readNBytes(2), StandardCharsets.UTF_8))
                            .as("a listener at another address on port " + port + " (python3 on this machine)")
                            .isEqualTo("up");
                }
                long pid = ProcessHandle.current().pid();
                RedisSelf self =
                        new RedisSelf(port, Optional.empty(), OptionalLong.of(pid), Optional.empty(), Optional.empty());

                String out = run(ServiceDiscovery.script("127.0.0.1", List.of(port), self));

                assertThat(out).as("every listener is counted").contains("sockets=4");
                assertThat(out.lines().filter(l -> l.startsWith("pid=")))
                        .as(out)
                        .containsExactly("pid=" + pid);
                RunningService found = ServiceDiscovery.decide(out, "127.0.0.1", List.of(port), Optional.empty())
                        .get(0);
                assertThat(found.pid()).as(out).hasValue(pid);
            } finally {
                others.forEach(Process::destroyForcibly);
            }
        }
    }

    private String run(String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PATH", dir + ":" + System.getenv("PATH"));
        Process sh = pb.start();
        String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
