package dev.fleetfix.checks;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the selected mode out of a THP sysfs file. Two shapes occur: the kernel's list with the
 * selected word in brackets ({@code always madvise [never]}), and a file holding one bare word
 * ({@code never}), which is what a plain file left by a write looks like (the lab, some
 * container setups).
 */
public final class ThpParser {
    private static final Pattern SELECTED = Pattern.compile("\\[([a-z+]+)]");

    private ThpParser() {}

    /** The selected mode, or empty when the text is neither shape (or names an unknown mode). */
    public static Optional<ThpMode> selected(String fileContent) {
        String text = fileContent.strip();
        Matcher m = SELECTED.matcher(text);
        if (m.find()) {
            return ThpMode.fromWord(m.group(1));
        }
        if (!text.isEmpty() && !text.contains(" ")) {
            return ThpMode.fromWord(text);
        }
        return Optional.empty();
    }
}
