package dev.fleetfix.inventory.ansible;

import dev.fleetfix.inventory.Inventory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Times loading a generated inventory of N hosts in one group (default 100,000). A main, not a
 * test: timings are never asserted. Run with the test classpath: {@code java -cp ...
 * dev.fleetfix.inventory.InventoryLoadBench 100000 3} (hosts, rounds).
 */
public final class InventoryLoadBench {
    private InventoryLoadBench() {}

    public static void main(String[] args) throws IOException {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path file = Files.createTempFile("fleetfix-bench-", ".yaml");
        try {
            StringBuilder yaml = new StringBuilder("all:\n  children:\n    redis:\n      hosts:\n");
            for (int i = 0; i < hosts; i++) {
                yaml.append("        redis-")
                        .append(i)
                        .append(": {ansible_host: 10.")
                        .append(i / 65536)
                        .append('.')
                        .append((i / 256) % 256)
                        .append('.')
                        .append(i % 256)
                        .append("}\n");
            }
            Files.writeString(file, yaml);
            for (int round = 1; round <= rounds; round++) {
                long start = System.nanoTime();
                Inventory inventory = InventoryLoader.load(file);
                long ms = (System.nanoTime() - start) / 1_000_000;
                System.out.printf(
                        "round %d: %d hosts, %d bytes, loaded in %d ms%n",
                        round, inventory.hosts().size(), Files.size(file), ms);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
