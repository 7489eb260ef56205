package dbg.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.WeakHashMap;

/**
 * Static entry points called by instrumented JDBC classes. They never
 * throw into the application. Nested calls on one thread (a driver's
 * execute calling its own executeQuery) record the outermost only.
 */
public final class SqlHooks {
    private static volatile SqlCapture sink;
    private static final Map<Object, String> SQL_OF = Collections.synchronizedMap(new WeakHashMap<>());
    private static final Map<Object, TreeMap<Integer, Object>> PARAMS = Collections.synchronizedMap(new WeakHashMap<>());
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    private static final ThreadLocal<Object[]> CURRENT = new ThreadLocal<>();

    private SqlHooks() {}

    static void install(SqlCapture s) {
        sink = s;
    }

    /** A statement prepared with sql (called on return of Connection.prepareStatement/prepareCall). */
    public static void prepared(Object stmt, String sql) {
        try {
            if (stmt != null && sql != null) {
                SQL_OF.put(stmt, sql);
                PARAMS.remove(stmt);
            }
        } catch (Throwable ignored) {
            // never disturb the application
        }
    }

    /** A parameter bound on a prepared statement (1-based index). */
    public static void param(Object stmt, int index, Object value) {
        try {
            PARAMS.computeIfAbsent(stmt, k -> new TreeMap<>()).put(index, value);
        } catch (Throwable ignored) {
            // as above
        }
    }

    public static void clearParams(Object stmt) {
        try {
            PARAMS.remove(stmt);
        } catch (Throwable ignored) {
            // as above
        }
    }

    /** Entry of an execute method; sql is null for prepared statements. */
    public static void enter(Object stmt, String sql) {
        try {
            int[] d = DEPTH.get();
            if (d[0]++ > 0) {
                return;
            }
            String text = sql != null ? sql : SQL_OF.get(stmt);
            List<String> params = new ArrayList<>();
            if (sql == null) {
                TreeMap<Integer, Object> p = PARAMS.get(stmt);
                if (p != null) {
                    synchronized (p) {
                        for (Object v : p.values()) {
                            params.add(v == null ? "NULL" : render(v));
                        }
                    }
                }
            }
            CURRENT.set(new Object[] {text, params, System.nanoTime()});
        } catch (Throwable ignored) {
            // as above
        }
    }

    /** Exit of an execute method, with the failure if it threw. */
    public static void exit(Object stmt, Throwable failure) {
        try {
            int[] d = DEPTH.get();
            if (d[0] > 0 && --d[0] > 0) {
                return;
            }
            Object[] cur = CURRENT.get();
            CURRENT.remove();
            SqlCapture s = sink;
            if (cur == null || s == null) {
                return;
            }
            @SuppressWarnings("unchecked")
            List<String> params = (List<String>) cur[1];
            long nanos = System.nanoTime() - (Long) cur[2];
            s.record((String) cur[0], params, nanos, failure == null ? null : failure.toString());
        } catch (Throwable ignored) {
            // as above
        }
    }

    private static String render(Object v) {
        String s = String.valueOf(v);
        if (s.length() > 500) {
            s = s.substring(0, 500) + "...";
        }
        return s;
    }
}
