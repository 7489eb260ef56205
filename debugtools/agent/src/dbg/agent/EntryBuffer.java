package dbg.agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A bounded buffer of captured entries, each a map numbered by seq: once
 * it holds more than maxEntries, or more than maxBytes by the sizes the
 * entries were added with, the oldest are dropped (and counted).
 * Thread-safe.
 */
final class EntryBuffer {
    private final int maxEntries;
    private final long maxBytes;
    private final ArrayDeque<Map<String, Object>> entries = new ArrayDeque<>();
    private long nextSeq = 1;
    private long bytes;
    private long dropped;

    EntryBuffer(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /**
     * Adds an entry made of seq, timestamp (now, in epoch milliseconds),
     * time (the same as an ISO instant), then fields in their order; size
     * is what it counts toward maxBytes.
     */
    void add(Map<String, Object> fields, long size) {
        Map<String, Object> e = new LinkedHashMap<>();
        long now = System.currentTimeMillis();
        synchronized (this) {
            e.put("seq", nextSeq++);
            e.put("timestamp", now);
            e.put("time", java.time.Instant.ofEpochMilli(now).toString());
            e.putAll(fields);
            e.put("_size", size);
            entries.addLast(e);
            bytes += size;
            while (entries.size() > maxEntries || bytes > maxBytes) {
                Map<String, Object> old = entries.removeFirst();
                bytes -= (Long) old.get("_size");
                dropped++;
            }
        }
    }

    /** Copies of the entries with seq > since that keep accepts, the newest limit of them (all when limit <= 0). */
    synchronized List<Map<String, Object>> since(long since, int limit, Predicate<Map<String, Object>> keep) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> e : entries) {
            if ((Long) e.get("seq") <= since || !keep.test(e)) {
                continue;
            }
            Map<String, Object> copy = new LinkedHashMap<>(e);
            copy.remove("_size");
            out.add(copy);
        }
        if (limit > 0 && out.size() > limit) {
            out = new ArrayList<>(out.subList(out.size() - limit, out.size()));
        }
        return out;
    }

    /** The seq of the newest entry added (0 before the first). */
    synchronized long lastSeq() {
        return nextSeq - 1;
    }

    /** How many entries the buffer holds. */
    synchronized int size() {
        return entries.size();
    }

    /** How many entries were dropped to keep within the bounds. */
    synchronized long dropped() {
        return dropped;
    }
}
