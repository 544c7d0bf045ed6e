import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.connection.channel.direct.Session;

/**
 * The floor of the SSH library fleetfix is built on: what {@code ssh-xN} does (one connection per host, all at once,
 * one remote command each), done by SSHJ in one JVM and nothing of fleetfix's. bench/audit-vs-ansible.sh compiles it
 * against fleetfix's jar (so the same SSHJ and BouncyCastle) and times it with the launcher's JVM options and a
 * start-up archive trained on one run of its own: the least a cold JVM spends on the same handshakes.
 *
 * <p>Arguments: HOSTS_FILE ("name address sshport redisport" per line), USER, KEY, KNOWN_HOSTS. It connects to every
 * host at once, checks the host key against KNOWN_HOSTS, logs in with KEY, runs the command ssh-xN runs, and fails
 * unless every host answered with Redis's INFO.
 */
public final class SshjFloor {
    public static void main(String[] args) throws Exception {
        List<String[]> hosts = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (!line.isBlank()) {
                hosts.add(line.trim().split("\\s+"));
            }
        }
        String user = args[1];
        String key = args[2];
        File knownHosts = new File(args[3]);
        DefaultConfig config = new DefaultConfig(); // shared, as fleetfix shares it
        ExecutorService pool = Executors.newFixedThreadPool(hosts.size());
        List<Future<String>> answers = new ArrayList<>();
        for (String[] host : hosts) {
            answers.add(pool.submit(() -> read(config, host, user, key, knownHosts)));
        }
        int failed = 0;
        for (int i = 0; i < answers.size(); i++) {
            String out = answers.get(i).get();
            if (!out.contains("redis_version:")) {
                failed++;
                System.err.println(hosts.get(i)[0] + ": no Redis INFO in:\n" + out);
            }
        }
        pool.shutdown();
        System.out.println(hosts.size() - failed + " of " + hosts.size() + " hosts answered");
        System.exit(failed == 0 ? 0 : 1);
    }

    private static String read(DefaultConfig config, String[] host, String user, String key, File knownHosts)
            throws IOException {
        String address = host[1];
        try (SSHClient ssh = new SSHClient(config)) {
            ssh.loadKnownHosts(knownHosts);
            ssh.connect(address, Integer.parseInt(host[2]));
            ssh.authPublickey(user, key);
            try (Session session = ssh.startSession()) {
                Session.Command command = session.exec("sudo -n sh -c 'cat /sys/kernel/mm/transparent_hugepage/enabled"
                        + " /sys/kernel/mm/transparent_hugepage/defrag; uname -r; redis-cli -h " + address + " -p "
                        + host[3] + " info server'");
                String out = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                command.join();
                return out;
            }
        }
    }
}
