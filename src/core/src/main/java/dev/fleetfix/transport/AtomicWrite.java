package dev.fleetfix.transport;

/**
 * The shell script behind {@link RemoteShell#put}: the content arrives on stdin, goes to a temporary
 * file next to the target (same file system, so {@code mv} is atomic), gets its mode, then replaces
 * the target in one rename. A reader never sees a half-written file.
 */
public final class AtomicWrite {
    private AtomicWrite() {}

    /** The script that writes stdin to {@code path} with the octal {@code mode}. */
    public static String script(String path, int mode) {
        if (path.isEmpty() || path.endsWith("/")) {
            throw new IllegalArgumentException("path must name a file, was '" + path + "'");
        }
        if (mode < 0 || mode > 07777) {
            throw new IllegalArgumentException("mode must be 0..07777, was " + Integer.toOctalString(mode));
        }
        int slash = path.lastIndexOf('/');
        String dir = slash < 0 ? "." : (slash == 0 ? "/" : path.substring(0, slash));
        String target = ShellQuote.quote(path);
        return "tmp=$(mktemp " + ShellQuote.quote(dir + "/.fleetfix.XXXXXX") + ") || exit 1; "
                + "if cat > \"$tmp\" && chmod " + Integer.toOctalString(mode) + " \"$tmp\" && mv -f \"$tmp\" "
                + target + "; then exit 0; fi; rm -f \"$tmp\"; exit 1";
    }
}
