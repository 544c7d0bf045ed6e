package dev.fleetfix.transport;

import dev.fleetfix.Secret;
import dev.fleetfix.inventory.BecomeMethod;
import dev.fleetfix.inventory.Host;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The conversation with sudo or su on one command's streams ({@link Become}). Its standard error is read through
 * {@link #stderr}: before the command runs as root, all it can hold is what sudo or su says. A prompt is answered
 * once, with the password and a newline on the command's input; a second prompt means the password was refused, and
 * the input is closed, so sudo gives up rather than try again. The marker the root shell prints ends the conversation:
 * from there on, the error stream is the command's own, and its input may be written ({@link #awaitStart}). What
 * sudo or su said before the marker is dropped then; when the command never ran, it is the error text, without the
 * prompts.
 *
 * <p>sudo's prompt is the one fleetfix gave it ({@code -p}), or PAM's where sudo keeps that one; su's is PAM's. A PAM
 * prompt, in any language, is text that ends in a colon, with nothing after it yet, before the marker.
 */
public final class BecomeAnswer {
    /** The answer of a command that meets no sudo or su that asks: its streams are its own. */
    static final BecomeAnswer NONE =
            new BecomeAnswer(null, Optional.empty(), null, "", OutputStream.nullOutputStream());

    /** What sudo or su may say before the command starts; past it, the conversation is given up. */
    private static final int MOST = 64 * 1024;

    private final BecomeMethod method;
    private final Optional<Secret> password;
    private final String prompt;
    private final byte[] marker;
    private final OutputStream stdin;
    private final CountDownLatch settled = new CountDownLatch(1);
    private volatile boolean started;
    private volatile int prompts;

    BecomeAnswer(BecomeMethod method, Optional<Secret> password, String prompt, String started, OutputStream stdin) {
        this.method = method;
        this.password = password;
        this.prompt = prompt;
        this.marker = (started + "\n").getBytes(StandardCharsets.US_ASCII);
        this.stdin = stdin;
    }

    /** The command's standard error as the caller should read it: the conversation first, then the command's own. */
    public InputStream stderr(InputStream raw) {
        return this == NONE ? raw : new Conversation(raw);
    }

    /**
     * Waits until the command runs as root (true), or until sudo or su gave up or the conversation ended otherwise
     * (false: the caller closes the command's input and reads what sudo or su said).
     */
    public boolean awaitStart(Duration within) throws InterruptedException {
        if (this == NONE) {
            return true;
        }
        settled.await(Math.max(1, within.toMillis()), TimeUnit.MILLISECONDS);
        return started;
    }

    /**
     * Once the command has ended: fails the host when sudo or su refused its password, or asked for one it has not.
     *
     * @throws TransportException of kind {@link TransportException.Kind#BECOME}, "become password refused by sudo"
     */
    public void check(Host host) {
        if (refused() || asked()) {
            throw new TransportException(host, TransportException.Kind.BECOME, refusal(), null);
        }
    }

    /** Whether a password was answered and the command never ran: sudo or su refused it. */
    boolean refused() {
        return prompts > 0 && !started && password.isPresent();
    }

    /** Whether sudo or su asked for a password this host has none of. */
    boolean asked() {
        return prompts > 0 && password.isEmpty();
    }

    /** "become password refused by sudo": the host's one line when {@link #refused()}. */
    String refusal() {
        return refused()
                ? "become password refused by " + method.word()
                : method.word() + " asked for a password and none is set (ansible_become_password or -K)";
    }

    private final class Conversation extends FilterInputStream {
        private final ByteArrayOutputStream said = new ByteArrayOutputStream();
        private byte[] rest = new byte[0];
        private int restAt;
        private boolean over;
        /** Where the text not yet taken as a prompt begins (su's prompts have no marker of ours). */
        private int unread;
        /** The PAM prompt answered, taken out of the text as fleetfix's own is. */
        private String suPrompt;

        Conversation(InputStream raw) {
            super(raw);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (!over) {
                converse();
            }
            if (restAt < rest.length) {
                int n = Math.min(len, rest.length - restAt);
                System.arraycopy(rest, restAt, b, off, n);
                restAt += n;
                return n;
            }
            return super.read(b, off, len);
        }

        /** Reads what sudo or su says until the marker, the end of the stream, or too much. */
        private void converse() throws IOException {
            byte[] buffer = new byte[4096];
            try {
                while (true) {
                    int n = in.read(buffer);
                    if (n < 0) {
                        rest = strip(said.toByteArray());
                        return;
                    }
                    said.write(buffer, 0, n);
                    byte[] text = said.toByteArray();
                    int at = indexOf(text, marker);
                    if (at >= 0) {
                        started = true;
                        // what sudo said before the command ran (a lecture, "Sorry, try again.") is not the command's
                        rest = Arrays.copyOfRange(text, at + marker.length, text.length);
                        return;
                    }
                    if (text.length > MOST) {
                        rest = text;
                        return;
                    }
                    if (newPrompt(text)) {
                        answer();
                    }
                }
            } finally {
                over = true;
                settled.countDown();
            }
        }

        /**
         * Whether sudo or su asks (again) since the last answer: sudo's prompt as fleetfix gave it, or a PAM prompt,
         * which sudo shows instead where PAM's is not the usual one (a one-time code, say) and su always shows.
         */
        private boolean newPrompt(byte[] text) {
            String seen = new String(text, StandardCharsets.ISO_8859_1);
            String fresh = seen.substring(unread);
            boolean ours = prompt != null && fresh.contains(prompt);
            boolean pam = fresh.stripTrailing().endsWith(":") && !fresh.endsWith("\n");
            if (!ours && !pam) {
                return false;
            }
            if (!ours) {
                suPrompt = fresh.substring(fresh.lastIndexOf('\n') + 1);
            }
            unread = seen.length();
            return true;
        }

        /** The password, once; a second prompt closes the input, so that sudo stops asking. */
        private void answer() {
            prompts++;
            try {
                if (prompts == 1 && password.isPresent()) {
                    stdin.write((password.get().reveal() + "\n").getBytes(StandardCharsets.UTF_8));
                    stdin.flush();
                } else {
                    stdin.close();
                }
            } catch (IOException e) {
                // sudo or su went away: what it said, and its exit status, tell why.
            }
        }

        /** What sudo or su said, without the prompts answered. */
        private byte[] strip(byte[] text) {
            String s = new String(text, StandardCharsets.ISO_8859_1);
            if (prompt != null) {
                s = s.replace(prompt, "");
            }
            if (suPrompt != null) {
                s = s.replaceFirst(java.util.regex.Pattern.quote(suPrompt), "");
            }
            return s.getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    private static int indexOf(byte[] text, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= text.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (text[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
