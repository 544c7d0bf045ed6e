package dev.fleetfix.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedisConfFileTest {

    @Test
    void splitsLinesAsRedisDoes() {
        assertThat(RedisConfFile.split("save \"\"")).contains(List.of("save", ""));
        assertThat(RedisConfFile.split("rename-command CONFIG ''")).contains(List.of("rename-command", "CONFIG", ""));
        assertThat(RedisConfFile.split("  requirepass \"a b\\x41\\n\"  ")).contains(List.of("requirepass", "a bA\n"));
        assertThat(RedisConfFile.split("save 900 1 300 10")).contains(List.of("save", "900", "1", "300", "10"));
        assertThat(RedisConfFile.split("rename-command CONFIG \"oops")).isEmpty();
    }

    @Test
    void splitsQuotesAndEscapesAtTheirEdges() {
        // a quote opens only where a word starts; inside a bare word it is a character
        // a quote opens in the middle of a bare word too, and the word ends where it closes (sdssplitargs)
        assertThat(RedisConfFile.split("requirepass a\"b c\"")).contains(List.of("requirepass", "ab c"));
        assertThat(RedisConfFile.split("requirepass a'b c' x")).contains(List.of("requirepass", "ab c", "x"));
        assertThat(RedisConfFile.split("requirepass a\"b'c")).isEmpty();
        assertThat(RedisConfFile.split("requirepass a\"b\"c")).isEmpty();
        // a closing quote must be followed by a space or the end of the line
        assertThat(RedisConfFile.split("requirepass \"ab\"c")).isEmpty();
        assertThat(RedisConfFile.split("requirepass 'ab'c")).isEmpty();
        assertThat(RedisConfFile.split("requirepass 'it\\'s' \"q\\\"\\\\\""))
                .contains(List.of("requirepass", "it's", "q\"\\"));
        // \x with one hex digit is not a byte: the x stays
        assertThat(RedisConfFile.split("requirepass \"\\x4\"")).contains(List.of("requirepass", "x4"));
        assertThat(RedisConfFile.split("requirepass \"a\\\"")).isEmpty();
        assertThat(RedisConfFile.split(" \t ")).contains(List.of());
    }

    @Test
    void savePointsFollowRedissRules() {
        assertThat(RedisConfFile.parse("port 6379\n").hasSavePoints())
                .as("no save line: Redis's defaults")
                .isTrue();
        assertThat(RedisConfFile.parse("save 900 1\nsave \"\"\n").hasSavePoints())
                .isFalse();
        assertThat(RedisConfFile.parse("save \"\"\nsave 900 1\n").hasSavePoints())
                .isTrue();
        assertThat(RedisConfFile.parse("# save 900 1\nsave ''\n").hasSavePoints())
                .isFalse();
    }

    @Test
    void includesAreSplicedInPlaceSoALaterLineWins() {
        RedisConfFile main = RedisConfFile.parse("save 900 1\ninclude /etc/redis/local.conf\n");
        assertThat(main.includes()).containsExactly("/etc/redis/local.conf");
        RedisConfFile spliced =
                main.splice("/etc/redis/local.conf", RedisConfFile.parse("save \"\"\nrename-command config \"\"\n"));
        assertThat(spliced.hasSavePoints()).isFalse();
        assertThat(spliced.renamedCommands()).containsEntry("CONFIG", "");
    }

    @Test
    void renamedCommandsKeepTheirNewName() {
        RedisConfFile conf = RedisConfFile.parse("rename-command CONFIG c0nf1g\nrename-command FLUSHALL \"\"\n");
        assertThat(conf.renamedCommands()).containsEntry("CONFIG", "c0nf1g").containsEntry("FLUSHALL", "");
    }

    @Test
    void anUnclosedQuoteIsAnError() {
        assertThatThrownBy(() -> RedisConfFile.parse("save \"900 1\n")).hasMessageContaining("unbalanced quotes");
    }
}
