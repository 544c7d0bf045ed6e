package dev.fleetfix.transport;

/**
 * A connection to one host that runs shell commands. One instance is opened per host and reused
 * for every command of a run. Implementations: {@code ssh} (SSHJ) and {@code local}.
 *
 * <p>Failures to reach the host throw {@link TransportException}; a command that runs and fails
 * is not an exception, it is an {@link ExecResult} with a non-zero exit code.
 */
public interface RemoteShell extends AutoCloseable {

    /** The inventory name of the host. */
    String hostName();

    /** Runs a command and waits for it, at most {@link Command#timeout()}. */
    ExecResult exec(Command command);

    /** Writes a file on the host, creating or replacing it atomically, with the given octal mode. */
    void put(String remotePath, byte[] content, int mode, boolean become);

    @Override
    void close();
}
