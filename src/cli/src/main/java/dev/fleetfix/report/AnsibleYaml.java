package dev.fleetfix.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.util.regex.Pattern;

/**
 * The one YAML writer of fleetfix: {@code inventory --list --yaml} and {@code --host --yaml}, the lab's inventories
 * and its vaulted variables. Jackson YAML, block style, no document marker; a string is plain only where YAML 1.1
 * (Ansible's PyYAML) reads it back as that same string ({@link Yaml11Quoting}), so a password of digits stays a
 * string. Keys come out in the order of the maps given: a caller that wants them sorted, as {@code
 * ansible-inventory} prints them, gives sorted maps.
 */
public final class AnsibleYaml {
    private static final YAMLMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
                    .stringQuotingChecker(new Yaml11Quoting())
                    .build())
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    private AnsibleYaml() {}

    /** {@code value} (maps, lists, strings, numbers, booleans) as a YAML document. */
    public static String write(Object value) {
        try {
            return YAML.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot be written as YAML: " + e.getMessage(), e);
        }
    }

    /**
     * Jackson's minimal quoting leaves plain what YAML 1.1 reads as something else: {@code 12:30} (a base-60 number),
     * {@code 0x1F}, {@code 1_000}, {@code .inf}, {@code 2001-01-01} (a date), {@code =} and {@code <<} (tags). A
     * key or value stays plain only when it is words of letters, digits and {@code _./@=+-} that begin with a letter
     * or an underscore (and not a word YAML reads as a boolean or null, which Jackson quotes).
     */
    static final class Yaml11Quoting extends StringQuotingChecker.Default {
        private static final long serialVersionUID = 1L;
        private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_./@=+-]*( [A-Za-z0-9_./@=+-]+)*");

        @Override
        public boolean needToQuoteName(String name) {
            return super.needToQuoteName(name) || !PLAIN.matcher(name).matches();
        }

        @Override
        public boolean needToQuoteValue(String value) {
            return super.needToQuoteValue(value) || !PLAIN.matcher(value).matches();
        }
    }
}
