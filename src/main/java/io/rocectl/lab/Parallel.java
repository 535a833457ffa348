package io.rocectl.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** Runs one action per item on a small thread pool; the first failure is rethrown after all finished. */
final class Parallel {
    private Parallel() {}

    static <T> void forEach(List<T> items, int threads, Consumer<T> action) {
        if (items.isEmpty()) return;
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, items.size())), r -> {
            Thread t = new Thread(r, "lab-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (T item : items) fs.add(pool.submit(() -> action.accept(item)));
            RuntimeException first = null;
            for (Future<?> f : fs) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof RuntimeException re ? re : new LabException(e.getCause().toString(), e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LabException("interrupted");
                }
            }
            if (first != null) throw first;
        } finally {
            pool.shutdownNow();
        }
    }
}
