package dbg.agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry points of traced methods. Recording happens only on a thread
 * that runs a traced invocation (start/stop); elsewhere the hooks return
 * at once. Bounded in depth and nodes.
 */
public final class TraceHooks {
    private static final int MAX_NODES = 5000;
    private static final ThreadLocal<Recorder> ACTIVE = new ThreadLocal<>();

    private TraceHooks() {}

    static final class Recorder {
        final int maxDepth;
        final boolean skipGetSet;
        final Map<String, Object> root = new LinkedHashMap<>();
        final ArrayDeque<Map<String, Object>> stack = new ArrayDeque<>();
        final ArrayDeque<Long> starts = new ArrayDeque<>();
        int nodes;
        int skippedDepth;
        boolean truncated;

        Recorder(int maxDepth, boolean skipGetSet) {
            this.maxDepth = maxDepth <= 0 ? 10 : maxDepth;
            this.skipGetSet = skipGetSet;
            root.put("children", new ArrayList<>());
            stack.push(root);
        }
    }

    static void start(int maxDepth, boolean skipGetSet) {
        ACTIVE.set(new Recorder(maxDepth, skipGetSet));
    }

    /** Stops recording on this thread and returns the call tree. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> stop() {
        Recorder r = ACTIVE.get();
        ACTIVE.remove();
        Map<String, Object> out = new LinkedHashMap<>();
        if (r == null) {
            out.put("calls", new ArrayList<>());
            return out;
        }
        out.put("calls", r.root.get("children"));
        out.put("nodes", r.nodes);
        out.put("truncated", r.truncated);
        return out;
    }

    private static boolean getterOrSetter(String name) {
        return (name.startsWith("get") || name.startsWith("set") || name.startsWith("is")) && name.length() > 2;
    }

    @SuppressWarnings("unchecked")
    public static void enter(String owner, String name) {
        Recorder r = ACTIVE.get();
        if (r == null) {
            return;
        }
        try {
            if (r.skippedDepth > 0 || r.stack.size() > r.maxDepth || r.nodes >= MAX_NODES || (r.skipGetSet && getterOrSetter(name))) {
                r.skippedDepth++;
                if (r.nodes >= MAX_NODES) {
                    r.truncated = true;
                }
                return;
            }
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("method", owner.replace('/', '.') + "#" + name);
            n.put("children", new ArrayList<>());
            ((List<Object>) r.stack.peek().get("children")).add(n);
            r.stack.push(n);
            r.starts.push(System.nanoTime());
            r.nodes++;
        } catch (Throwable ignored) {
            // never disturb the traced code
        }
    }

    public static void exit(Throwable failure) {
        Recorder r = ACTIVE.get();
        if (r == null) {
            return;
        }
        try {
            if (r.skippedDepth > 0) {
                r.skippedDepth--;
                return;
            }
            if (r.stack.size() <= 1) {
                return;
            }
            Map<String, Object> n = r.stack.pop();
            long start = r.starts.pop();
            n.put("durationMicros", (System.nanoTime() - start) / 1000);
            if (failure != null) {
                n.put("throwable", failure.toString());
            }
            if (((List<?>) n.get("children")).isEmpty()) {
                n.remove("children");
            }
        } catch (Throwable ignored) {
            // as above
        }
    }
}
