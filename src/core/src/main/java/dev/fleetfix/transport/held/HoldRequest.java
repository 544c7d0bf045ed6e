package dev.fleetfix.transport.held;

import dev.fleetfix.transport.Command;
import dev.fleetfix.transport.ExecResult;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;

/**
 * The requests a run sends its holder, one type each, as they travel: an operation byte, then the request's fields in
 * a fixed order ({@link HoldWire}). The run writes them ({@link HoldClient}, {@link HeldShell}) and the holder reads
 * them ({@link Holder}), which answers each {@link HoldWire#DONE} and the reply's fields, or {@link HoldWire#FAILED}.
 */
sealed interface HoldRequest {
    void write(DataOutputStream out) throws IOException;

    /** The request whose operation byte, {@code op}, was just read. */
    static HoldRequest read(byte op, DataInputStream in) throws IOException {
        return switch (op) {
            case Hello.OP -> new Hello(HoldWire.readString(in), Duration.ofMillis(in.readLong()));
            case Open.OP -> new Open(HoldLogin.read(in));
            case Exec.OP -> new Exec(
                    new Command(HoldWire.readString(in), in.readBoolean(), Duration.ofMillis(in.readLong())));
            case Put.OP -> new Put(HoldWire.readString(in), in.readInt(), in.readBoolean(), HoldWire.readBytes(in));
            case Status.OP -> new Status();
            case Stop.OP -> new Stop();
            default -> throw new IOException("not the holder's wire: operation " + op);
        };
    }

    /**
     * First request on every socket: the build's version and the persist time the run asks for (zero asks only,
     * as {@code fleetfix connections} does). A holder of another build answers {@link HoldWire#FAILED}; the run then
     * stops it and starts its own.
     */
    record Hello(String version, Duration persist) implements HoldRequest {
        static final byte OP = 'H';

        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(OP);
            HoldWire.writeString(out, version);
            out.writeLong(persist.toMillis());
        }
    }

    /**
     * Log in to a host, or take the held connection that matches: the host's login and the run's SSH options. The
     * reply says whether the connection was held already.
     */
    record Open(HoldLogin login) implements HoldRequest {
        static final byte OP = 'O';

        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(OP);
            login.write(out);
        }
    }

    /** Run a command on the opened host; the reply is its result. */
    record Exec(Command command) implements HoldRequest {
        static final byte OP = 'X';

        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(OP);
            HoldWire.writeString(out, command.script());
            out.writeBoolean(command.become());
            out.writeLong(command.timeout().toMillis());
        }

        static void writeReply(DataOutputStream out, ExecResult result) throws IOException {
            out.writeInt(result.exitCode());
            HoldWire.writeString(out, result.stdout());
            HoldWire.writeString(out, result.stderr());
            out.writeLong(result.duration().toNanos());
            out.writeLong(result.dropped());
        }

        static ExecResult readReply(DataInputStream in) throws IOException {
            return new ExecResult(
                    in.readInt(),
                    HoldWire.readString(in),
                    HoldWire.readString(in),
                    Duration.ofNanos(in.readLong()),
                    in.readLong());
        }
    }

    /** Write a file on the opened host. */
    record Put(String path, int mode, boolean become, byte[] content) implements HoldRequest {
        static final byte OP = 'P';

        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(OP);
            HoldWire.writeString(out, path);
            out.writeInt(mode);
            out.writeBoolean(become);
            HoldWire.writeBytes(out, content);
        }
    }

    /** The holder's state: one line per held connection, in one string. */
    record Status() implements HoldRequest {
        static final byte OP = 'S';

        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(OP);
        }
    }

    /** Close every held connection and exit. */
    record Stop() implements HoldRequest {
        static final byte OP = 'Q';

        @Override
        public void write(DataOutputStream out) throws IOException {
            out.writeByte(OP);
        }
    }
}
