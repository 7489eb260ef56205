package dbg.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Results kept for the result views, by offsetPath. Bounded: the oldest
 * go first. Thread-safe.
 */
final class Results {
    private static final int MAX = 256;
    private final AtomicLong next = new AtomicLong(System.currentTimeMillis() * 1000);
    private final Map<String, Object> byPath = new LinkedHashMap<String, Object>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Object> e) {
            return size() > MAX;
        }
    };

    synchronized String put(Object o) {
        String id = Long.toString(next.incrementAndGet());
        byPath.put(id, o);
        return id;
    }

    synchronized boolean has(String id) {
        return byPath.containsKey(id);
    }

    synchronized Object get(String id) {
        return byPath.get(id);
    }

    synchronized void remove(String id) {
        byPath.remove(id);
    }

    synchronized void clear() {
        byPath.clear();
    }

    synchronized int size() {
        return byPath.size();
    }
}
