package dev.fleetfix.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostTextTest {
    @Test
    void controlCharactersBecomeVisibleEscapes() {
        assertThat(HostText.clean("a\u001b[2Jb\u0007c\u0000d")).isEqualTo("a\\x1b[2Jb\\x07c\\x00d");
        assertThat(HostText.clean("title\u001b]0;pwned\u0007")).isEqualTo("title\\x1b]0;pwned\\x07");
        assertThat(HostText.clean("del\u007f c1\u009b")).isEqualTo("del\\x7f c1\\x9b");
    }

    @Test
    void linesAndTabsStayAndCrLfIsALineEnd() {
        assertThat(HostText.clean("a\tb\nc\r\nd")).isEqualTo("a\tb\nc\nd");
        assertThat(HostText.clean("progress 10%\rprogress 20%")).isEqualTo("progress 10%\\x0dprogress 20%");
    }

    @Test
    void directionOverridesLoneSurrogatesAndXmlNonCharactersAreNotKept() {
        assertThat(HostText.clean("evil\u202egnp.exe")).isEqualTo("evil\\u202egnp.exe");
        assertThat(HostText.clean("x\ud800y\uffff")).isEqualTo("x\ufffdy\ufffd");
        assertThat(HostText.clean("emoji \ud83d\ude00 ok")).isEqualTo("emoji \ud83d\ude00 ok");
    }

    @Test
    void cleanTextIsReturnedAsItIs() {
        String text = "thp.enabled always → never (166ms)";
        assertThat(HostText.clean(text)).isSameAs(text);
    }
}
