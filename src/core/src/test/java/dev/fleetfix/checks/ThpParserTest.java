package dev.fleetfix.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThpParserTest {

    @Test
    void readsTheBracketedWordOfTheKernelFormat() {
        assertThat(ThpParser.selected("always [madvise] never\n")).contains(ThpMode.MADVISE);
        assertThat(ThpParser.selected("[always] madvise never")).contains(ThpMode.ALWAYS);
        assertThat(ThpParser.selected("always defer defer+madvise [madvise] never"))
                .contains(ThpMode.MADVISE);
        assertThat(ThpParser.selected("always defer [defer+madvise] madvise never"))
                .contains(ThpMode.DEFER_MADVISE);
    }

    @Test
    void readsABareWord() {
        assertThat(ThpParser.selected("never\n")).contains(ThpMode.NEVER);
        assertThat(ThpParser.selected("  always ")).contains(ThpMode.ALWAYS);
    }

    @Test
    void rejectsWhatIsNeitherShape() {
        assertThat(ThpParser.selected("")).isEmpty();
        assertThat(ThpParser.selected("always madvise never")).isEmpty();
        assertThat(ThpParser.selected("sometimes")).isEmpty();
    }
}
