package dev.fleetfix.lab;

import dev.fleetfix.transport.ExecResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives an integration test its lab fleet: started once before the class's first test (and before
 * its {@code @BeforeAll} methods, which may prepare the hosts further), removed after its last (and
 * after its {@code @AfterAll} methods). Declare it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final LabFleetExtension fleet = LabFleetExtension.of(LabHostSpec.named("lab-1"), LabHostSpec.named("lab-2"));
 * }</pre>
 *
 * A fleet that cannot start (no Docker, say) fails the class with the lab's own error; nothing is
 * skipped.
 */
public final class LabFleetExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    private final Supplier<LabFleet> start;
    private LabFleet fleet;
    private Duration startedIn = Duration.ZERO;

    private LabFleetExtension(Supplier<LabFleet> start) {
        this.start = Objects.requireNonNull(start, "start");
    }

    public static LabFleetExtension of(LabHostSpec... specs) {
        return of(List.of(specs));
    }

    public static LabFleetExtension of(List<LabHostSpec> specs) {
        List<LabHostSpec> copy = List.copyOf(specs);
        return starting(() -> LabFleet.start(copy));
    }

    /** {@code hosts} hosts {@code lab-1}..{@code lab-N}, laid out by {@code preset}. */
    public static LabFleetExtension of(int hosts, LabPreset preset) {
        return starting(() -> LabFleet.start(hosts, preset));
    }

    /** A fleet started some other way (with other settings, say). */
    public static LabFleetExtension starting(Supplier<LabFleet> start) {
        return new LabFleetExtension(start);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (fleet == null) {
            long started = System.nanoTime();
            fleet = start.get();
            startedIn = Duration.ofNanos(System.nanoTime() - started);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (fleet == null) {
            throw new IllegalStateException(
                    "the lab fleet was not started: declare the @RegisterExtension LabFleetExtension field static");
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        // @Nested classes see the outer class's extension too: only the class that started it removes it.
        if (fleet != null
                && context.getParent().flatMap(ExtensionContext::getTestClass).isEmpty()) {
            fleet.close();
            fleet = null;
        }
    }

    /** The running fleet, for everything this class does not pass through. */
    public LabFleet get() {
        if (fleet == null) {
            throw new IllegalStateException("the lab fleet is not running (used outside its test class?)");
        }
        return fleet;
    }

    /** How long the fleet took to start and settle. */
    public Duration startedIn() {
        return startedIn;
    }

    // The fleet's own operations, so that a test reads as it did with a LabFleet in hand.

    public String id() {
        return get().id();
    }

    public Path directory() {
        return get().directory();
    }

    public List<LabHost> hosts() {
        return get().hosts();
    }

    public LabHost host(String name) {
        return get().host(name);
    }

    /** The fleet's Ansible-style inventory file. */
    public Path inventoryFile() {
        return get().inventoryFile();
    }

    /** {@link #inventoryFile()} as a command-line argument. */
    public String inventory() {
        return inventoryFile().toString();
    }

    public Path knownHostsFile() {
        return get().knownHostsFile();
    }

    public Path privateKey() {
        return get().privateKey();
    }

    public String user() {
        return get().user();
    }

    /** See {@link LabFleet#rootExec}: through Docker, not SSH. */
    public ExecResult rootExec(String host, String shellCommand) {
        return get().rootExec(host, shellCommand);
    }

    public void copyInto(String host, Path file, String containerDir) {
        get().copyInto(host, file, containerDir);
    }

    public String thp(String host) {
        return get().thp(host);
    }

    /** See {@link LabFleet#thpMode}. */
    public Optional<String> thpMode(String host) {
        return get().thpMode(host);
    }

    public void kernelDefault(String host, String name, int value) {
        get().kernelDefault(host, name, value);
    }

    public String sysctl(String host, String name) {
        return get().sysctl(host, name);
    }

    public void reboot(String host) {
        get().reboot(host);
    }

    public void stop(String host) {
        get().stop(host);
    }

    public void start(String host) {
        get().start(host);
    }

    public void killRedis(String host) {
        get().killRedis(host);
    }

    public void stopRedis(String host) {
        get().stopRedis(host);
    }

    public void startRedis(String host) {
        get().startRedis(host);
    }

    public void stopSshd(String host) {
        get().stopSshd(host);
    }

    public void startSshd(String host) {
        get().startSshd(host);
    }

    public void reloadSshd(String host) {
        get().reloadSshd(host);
    }

    public String pid1(String host) {
        return get().pid1(host);
    }

    public List<LabHostStatus> status() {
        return get().status();
    }
}
