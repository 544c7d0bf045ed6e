package dev.fleetfix.inventory.ansible;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fleetfix.yaml.YamlValue;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class InventoryPortTest {

    private static OptionalInt port(Object value) {
        return InventoryPort.parse(YamlValue.of(value, 3, 17));
    }

    @Test
    void readsNumbersAndDigitStringsInRange() {
        assertThat(port(6380)).hasValue(6380);
        assertThat(port(6380L)).hasValue(6380);
        assertThat(port("6380")).hasValue(6380);
        assertThat(port(" 22 ")).hasValue(22);
        assertThat(port(1)).hasValue(1);
        assertThat(port(65535)).hasValue(65535);
    }

    @Test
    void refusesWhatIsNotAPort() {
        assertThat(port(0)).isEmpty();
        assertThat(port(65536)).isEmpty();
        assertThat(port(22.0)).isEmpty();
        assertThat(port("22x")).isEmpty();
        assertThat(port("")).isEmpty();
        assertThat(port(true)).isEmpty();
        assertThat(port(List.of(22))).isEmpty();
        assertThat(port(null)).isEmpty();
    }
}
