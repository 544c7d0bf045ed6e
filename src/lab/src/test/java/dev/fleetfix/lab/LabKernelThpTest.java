package dev.fleetfix.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabKernelThpTest {
    @TempDir
    Path dir;

    @Test
    void theKernelsSelectedModeAndALabFilesPlainWord() {
        assertThat(LabKernelThp.selected("always [madvise] never\n")).hasValue("madvise");
        assertThat(LabKernelThp.selected("never\n")).hasValue("never");
        assertThat(LabKernelThp.selected("sometimes")).isEmpty();
    }

    @Test
    void aFreshlyBootedLabHostsFileSelectsAlwaysThoughItListsNever() {
        // what LabFleet.thpMode reads: a check for the word never in the file passes on both of these
        assertThat(LabKernelThp.selected("[always] madvise never\n")).hasValue("always");
        assertThat(LabKernelThp.selected("always madvise [never]\n")).hasValue("never");
    }

    @Test
    void setsAlwaysAndPutsBackWhatItFound() throws Exception {
        Path kernel = Files.writeString(dir.resolve("enabled"), "always [madvise] never\n");
        Path lab = dir.resolve("lab");
        LabKernelThp thp = new LabKernelThp(kernel);

        thp.setAlways(lab);
        assertThat(Files.readString(kernel)).isEqualTo("always");
        assertThat(Files.readString(lab.resolve(LabKernelThp.SAVED))).isEqualTo("madvise\n");

        assertThat(thp.restore(lab)).hasValue("madvise");
        assertThat(Files.readString(kernel)).isEqualTo("madvise");
        // a second removal (lab down after the JVM's exit hook) changes nothing
        assertThat(thp.restore(lab)).isEmpty();
    }

    @Test
    void twoLabsAtOnceKeepTheFirstModeAndTheLastRemovedPutsItBack() throws Exception {
        Path kernel = Files.writeString(dir.resolve("enabled"), "always [madvise] never\n");
        LabKernelThp thp = new LabKernelThp(kernel);
        Path first = dir.resolve("home/a");
        Path second = dir.resolve("home/b");

        thp.setAlways(first);
        thp.setAlways(second);
        assertThat(Files.readString(second.resolve(LabKernelThp.SAVED))).isEqualTo("madvise\n");

        assertThat(thp.restore(first)).hasValue("kept at always: another real-THP lab still runs");
        assertThat(Files.readString(kernel)).isEqualTo("always");
        assertThat(thp.restore(second)).hasValue("madvise");
        assertThat(Files.readString(kernel)).isEqualTo("madvise");
    }

    @Test
    void aKernelWithoutThpIsNamed() {
        LabKernelThp thp = new LabKernelThp(dir.resolve("no-such/enabled"));
        assertThatThrownBy(() -> thp.setAlways(dir.resolve("lab")))
                .isInstanceOf(LabException.class)
                .hasMessageContaining("cannot be read from " + dir.resolve("no-such/enabled"))
                .hasMessageContaining("a kernel without transparent huge pages has no such file");
    }

    @Test
    void theLauncherDisablesThpOnlyWhenTheHostsFileReadsNever() {
        String launcher = LabHostSetup.launcher();
        assertThat(launcher)
                .contains("never|*\"[never]\"*)")
                .contains("syscall(157, 41, 1, 0, 0, 0)")
                .contains("exec \"$@\"");
        assertThat(LabHostSetup.thpDropIn())
                .contains("NoExecPaths=\n")
                .contains("ExecStart=/bin/sh " + LabHostSetup.THP_LAUNCHER + " /usr/bin/redis-server");
    }
}
