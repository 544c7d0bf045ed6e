package dev.fleetfix;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The house rules that the compiler does not check: no two packages depend on each other, even
 * through others (every package its own slice, so {@code steps.restart} may not lean on
 * {@code steps} while {@code steps} leans on it), and every vendor library stays behind its one
 * package.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.fleetfix");

    @Test
    void noPackageCycle() {
        slices().matching("dev.fleetfix.(**)").should().beFreeOfCycles().check(MAIN);
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
    void onlyCliImportsPicocli() {
        only("dev.fleetfix.cli..", "picocli..");
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
