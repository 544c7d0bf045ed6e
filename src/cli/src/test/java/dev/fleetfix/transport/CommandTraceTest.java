package dev.fleetfix.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.fake.RecordingShell;
import dev.fleetfix.inventory.Host;
import dev.fleetfix.report.console.CommandEcho;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class CommandTraceTest {

    @Test
    void echoesEveryCommandBeforeItRunsAndPassesItThroughUnchanged() {
        RecordingShell shell = RecordingShell.printing("redis-1", "ran");
        StringWriter err = new StringWriter();
        ShellFactory traced = CommandTrace.around(host -> shell, new CommandEcho(new PrintWriter(err, true)));

        RemoteShell opened = traced.open(Host.implicitLocalhost());
        ExecResult result = opened.exec(Command.of("uname -r"));
        opened.exec(Command.of("cat /sys/kernel/mm/transparent_hugepage/enabled\necho done")
                .asRoot());
        opened.put("/etc/tmpfiles.d/fleetfix-thp.conf", new byte[12], 0644, true);

        assertThat(result.stdout()).isEqualTo("ran");
        assertThat(shell.calls())
                .containsExactly(
                        "uname -r",
                        "cat /sys/kernel/mm/transparent_hugepage/enabled\necho done",
                        "put /etc/tmpfiles.d/fleetfix-thp.conf");
        assertThat(err.toString().lines())
                .containsExactly(
                        "[redis-1] $ uname -r",
                        "[redis-1] $ sudo cat /sys/kernel/mm/transparent_hugepage/enabled",
                        "[redis-1] > echo done",
                        "[redis-1] $ sudo (write 12 bytes, mode 644) /etc/tmpfiles.d/fleetfix-thp.conf");
    }
}
