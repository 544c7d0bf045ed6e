package dev.fleetfix;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import dev.fleetfix.inventory.ansible.AnsibleConfig;
import dev.fleetfix.inventory.ansible.AnsibleEnvironment;
import dev.fleetfix.inventory.ansible.ExtraVars;
import dev.fleetfix.inventory.ansible.InventoryInput;
import dev.fleetfix.inventory.ansible.InventoryLoader;
import dev.fleetfix.inventory.ansible.InventoryService;
import dev.fleetfix.inventory.ansible.SshConfig;
import dev.fleetfix.inventory.ansible.vault.VaultCipher;
import dev.fleetfix.steps.restart.handover.Handover;
import dev.fleetfix.steps.restart.handover.RouteChoice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The house rules that the compiler does not check: no two packages depend on each other, even
 * through others (every package its own slice, so {@code steps.restart} may not lean on
 * {@code steps} while {@code steps} leans on it), and every vendor library stays behind its one
 * package. Above the packages, the folders stand in floors ({@link #FLOORS}): a folder imports only folders on
 * floors below its own, so a loop through subpackages (a {@code redis} adapter importing {@code bench} types while
 * {@code bench} imports {@code redis}) fails too. The floors match the Maven modules: {@code lab} (fleetfix-lab, a
 * plug-in of the command) on top, {@code cli} and {@code report} (fleetfix-cli), the rest (fleetfix-core); this test
 * lives in fleetfix-lab, whose class path holds all three.
 */
class ArchitectureTest {
    /**
     * The floors, top first; the folders of one floor do not import each other. The root package (durations, secrets,
     * the sleeper) is below them all.
     */
    static final List<List<String>> FLOORS = List.of(
            List.of("lab"),
            List.of("cli"),
            List.of("report"),
            List.of("rollout"),
            List.of("steps"),
            List.of("checks", "bench"),
            List.of("health"),
            List.of("redis", "playbook"),
            List.of("transport"),
            List.of("inventory"),
            List.of("yaml"));

    /**
     * The floors inside {@code bench}, top first: a plan run on hosts and the verdicts on its rounds, then the
     * redis-benchmark adapter, the builtin load (whose eviction watch the adapter borrows), and the plan with its
     * specs and safety guard, which both engines read. {@code bench} itself, the results they share, is below them
     * all.
     */
    static final List<List<String>> BENCH_FLOORS = List.of(
            List.of("bench.host", "bench.verdict"),
            List.of("bench.redisbenchmark"),
            List.of("bench.load"),
            List.of("bench.plan"));

    /**
     * The way into {@code inventory.ansible} from outside {@code inventory}: the service that reads what the command
     * line gives, its input, the loader of one file, the Ansible user's machine ({@code ansible.cfg}, {@code
     * ANSIBLE_*}) and the answers it gives (settings, ssh_config per host, extra vars), nested types included; and
     * the vault's cipher, with which the lab vaults its hosts' become passwords as operators do. The readers of the
     * formats, templates and vault files stay behind it.
     */
    static final List<Class<?>> INVENTORY_ANSIBLE_ENTRY = List.of(
            InventoryService.class,
            InventoryInput.class,
            InventoryLoader.class,
            AnsibleEnvironment.class,
            AnsibleConfig.class,
            SshConfig.class,
            ExtraVars.class,
            VaultCipher.class);

    /**
     * The shipped classes only. A reactor build puts the other modules' test jars ({@code *-tests.jar}) on this
     * module's class path, which ArchUnit's own test filter (directories only) lets through.
     */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.fleetfix");

    @Test
    void noPackageCycle() {
        slices().matching("dev.fleetfix.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void everyFolderImportsOnlyTheFloorsBelowIt() {
        floors(FLOORS).check(MAIN);
    }

    @Test
    void benchSubpackagesImportOnlyTheFloorsBelowThem() {
        floors(BENCH_FLOORS).check(MAIN);
    }

    /** The rule for {@code floors}: each folder may be used only by the folders of the floors above it. */
    static LayeredArchitecture floors(List<List<String>> floors) {
        LayeredArchitecture rule = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (List<String> floor : floors) {
            for (String folder : floor) {
                rule = rule.layer(folder).definedBy("dev.fleetfix." + folder + "..");
            }
        }
        List<String> above = new ArrayList<>();
        for (List<String> floor : floors) {
            for (String folder : floor) {
                rule = above.isEmpty()
                        ? rule.whereLayer(folder).mayNotBeAccessedByAnyLayer()
                        : rule.whereLayer(folder).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
            }
            above.addAll(floor);
        }
        return rule;
    }

    /**
     * The restart's routes stay behind {@link Handover}: only {@link RouteChoice}, which picks a route, names the
     * classes that implement it (and they each other); the sequence ({@code SafeRestart}) and everything else know the
     * interface alone.
     */
    @Test
    void restartRoutesAreNamedOnlyByTheRouteChoice() {
        noClasses()
                .that()
                .doNotImplement(Handover.class)
                .and()
                .doNotBelongToAnyOf(Handover.class, RouteChoice.class)
                .should()
                .dependOnClassesThat()
                .implement(Handover.class)
                .because("a route is chosen by RouteChoice and used through the Handover interface")
                .check(MAIN);
    }

    @Test
    void inventoryAnsibleIsUsedOnlyThroughItsEntry() {
        inventoryAnsibleBehindItsEntry().check(MAIN);
    }

    /** Outside {@code inventory}, code reads the model and calls the entry, never a reader of Ansible's formats. */
    static ArchRule inventoryAnsibleBehindItsEntry() {
        return noClasses()
                .that()
                .resideOutsideOfPackage("dev.fleetfix.inventory..")
                .should()
                .dependOnClassesThat(resideInAPackage("dev.fleetfix.inventory.ansible..")
                        .and(not(belongToAnyOf(INVENTORY_ANSIBLE_ENTRY.toArray(Class<?>[]::new)))))
                .because("Ansible's formats are read behind InventoryService and AnsibleEnvironment; the rest of"
                        + " fleetfix sees the model in dev.fleetfix.inventory");
    }

    @Test
    void theInventoryModelDoesNotReadAnsible() {
        noClasses()
                .that()
                .resideInAPackage("dev.fleetfix.inventory")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.fleetfix.inventory.ansible..")
                .because("the readers build the model; the model knows no format")
                .check(MAIN);
    }

    @Test
    void onlyTransportSshImportsSshj() {
        only("dev.fleetfix.transport.ssh..", "net.schmizz..", "com.hierynomus..");
    }

    @Test
    void onlyRedisJedisImportsJedis() {
        only("dev.fleetfix.redis.jedis..", "redis.clients..");
    }

    @Test
    void onlyTheCommandsImportPicocli() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.fleetfix.cli..", "dev.fleetfix.lab.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("picocli..")
                .because("commands parse; nothing below them knows the command line")
                .check(MAIN);
    }

    @Test
    void onlyLabImportsTestcontainers() {
        only("dev.fleetfix.lab..", "org.testcontainers..");
    }

    private static void only(String owner, String... vendor) {
        noClasses()
                .that()
                .resideOutsideOfPackage(owner)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(vendor)
                .because("the vendor library stays behind its port, in " + owner)
                .check(MAIN);
    }
}
