package dev.fleetfix.steps.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextDiffTest {
    @Test
    void unifiedDiffWithContext() {
        String before = "a\nb\nc\nd\ne\nf\ng\nh\n";
        String after = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assertThat(TextDiff.unified("/etc/x", before, after))
                .isEqualTo("--- a/etc/x\n+++ b/etc/x\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
    }

    @Test
    void newFileDiffsAgainstDevNull() {
        assertThat(TextDiff.unified("/etc/y", null, "one\ntwo\n"))
                .isEqualTo("--- /dev/null\n+++ b/etc/y\n@@ -0,0 +1,2 @@\n+one\n+two\n");
    }

    @Test
    void equalTextsHaveNoDiff() {
        assertThat(TextDiff.unified("/etc/z", "x\n", "x\n")).isEmpty();
    }
}
