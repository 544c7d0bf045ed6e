package dev.fleetfix;

import java.util.Locale;

/**
 * OpenSSH's host patterns, as a known_hosts line, a host certificate's principals and ssh_config's {@code Host} lines
 * use them: {@code *} any run of characters, {@code ?} one character, {@code !} a negation, the rest literal, letters
 * of either case alike.
 */
public final class SshHostPatterns {
    private SshHostPatterns() {}

    /**
     * OpenSSH's match_hostname over a line's comma-separated patterns: a negated pattern that matches makes the
     * whole line not apply, whatever positive pattern matched too. SSHJ's matcher reads "!x" as "any host but x"
     * and ORs it with the others, so "10.0.0.*,!10.0.0.66" applied to 10.0.0.66, and a lone "!x" to every host.
     */
    public static boolean matches(String patterns, String host) {
        boolean positive = false;
        String name = host.toLowerCase(Locale.ROOT);
        for (String pattern : patterns.toLowerCase(Locale.ROOT).split(",", -1)) {
            boolean negated = pattern.startsWith("!");
            if (glob(negated ? pattern.substring(1) : pattern, name)) {
                if (negated) {
                    return false;
                }
                positive = true;
            }
        }
        return positive;
    }

    /** OpenSSH's match_pattern: {@code *} any run of characters, {@code ?} one character, the rest literal. */
    public static boolean glob(String pattern, String text) {
        int p = 0;
        int t = 0;
        int starAt = -1;
        int textAtStar = 0;
        while (t < text.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == text.charAt(t))) {
                p++;
                t++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                starAt = p++;
                textAtStar = t;
            } else if (starAt >= 0) {
                p = starAt + 1;
                t = ++textAtStar;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
