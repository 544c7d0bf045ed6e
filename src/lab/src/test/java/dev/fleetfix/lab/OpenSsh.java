package dev.fleetfix.lab;

import dev.fleetfix.transport.ExecResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command on a lab host through the OpenSSH client with the lab's key and known_hosts, host keys checked
 * strictly: what an operator's ssh does, independent of fleetfix's own transport.
 */
final class OpenSsh {
    private OpenSsh() {}

    static ExecResult run(LabFleet fleet, String host, String command) {
        LabHost target = fleet.host(host);
        List<String> argv = new ArrayList<>(List.of(
                "/usr/bin/ssh",
                "-i",
                fleet.privateKey().toString(),
                "-o",
                "UserKnownHostsFile=" + fleet.knownHostsFile(),
                "-o",
                "GlobalKnownHostsFile=/dev/null",
                "-o",
                "StrictHostKeyChecking=yes",
                "-o",
                "BatchMode=yes",
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "ConnectTimeout=10",
                "-p",
                Integer.toString(target.sshPort()),
                fleet.user() + "@" + target.address(),
                command));
        long started = System.nanoTime();
        try {
            Process process = new ProcessBuilder(argv).start();
            process.getOutputStream().close();
            CompletableFuture<String> stdout = read(process.getInputStream());
            CompletableFuture<String> stderr = read(process.getErrorStream());
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("ssh " + host + " '" + command + "' did not finish in 120 s");
            }
            return new ExecResult(
                    process.exitValue(), stdout.join(), stderr.join(), Duration.ofNanos(System.nanoTime() - started));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static CompletableFuture<String> read(java.io.InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
