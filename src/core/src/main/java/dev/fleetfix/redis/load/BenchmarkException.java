package dev.fleetfix.redis.load;

/** A benchmark could not run or its output could not be understood. The message says which and why. */
public class BenchmarkException extends RuntimeException {
    public BenchmarkException(String message) {
        super(message);
    }

    public BenchmarkException(String message, Throwable cause) {
        super(message, cause);
    }
}
