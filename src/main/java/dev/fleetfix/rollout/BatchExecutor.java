package dev.fleetfix.rollout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one batch's hosts in parallel, at most {@code forks} at a time, and waits for all. (Named
 * apart from {@code Forks}, the general host-parallelism helper of the audit command, which this
 * can be swapped for.)
 */
final class BatchExecutor implements AutoCloseable {
    private final ExecutorService pool;

    BatchExecutor(int forks) {
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(forks, r -> {
            Thread t = new Thread(r, "fleetfix-fork-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    <T> List<T> runAll(List<Callable<T>> tasks) throws InterruptedException {
        List<Future<T>> futures = pool.invokeAll(tasks);
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            try {
                results.add(f.get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException re) {
                    throw re;
                }
                if (cause instanceof InterruptedException ie) {
                    throw ie;
                }
                throw new IllegalStateException(cause);
            }
        }
        return results;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
