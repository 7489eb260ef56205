package dbg.agent;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Recent SQL statements with bound parameters, durations and failures,
 * in a bounded buffer. Capture works by retransforming the JDBC driver's
 * Connection and Statement classes (already loaded ones too), so
 * connections opened before the agent arrived are covered. When that is
 * impossible, status() says why. Thread-safe.
 */
final class SqlCapture {
    private static final int MAX_ENTRIES = 2000;
    private static final int MAX_BYTES = 2 << 20;

    private final Instrumentation inst;
    private final EntryBuffer entries = new EntryBuffer(MAX_ENTRIES, MAX_BYTES);
    private volatile boolean available;
    private volatile String mode = "none";
    private volatile String reason = "not installed";
    private final List<String> instrumented = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final boolean forceWrap;

    /** forceWrap skips instrumentation and uses the DriverManager fallback (agent argument sqlMode=wrap). */
    SqlCapture(Instrumentation inst, boolean forceWrap) {
        this.inst = inst;
        this.forceWrap = forceWrap;
    }

    private final java.util.concurrent.CountDownLatch installed = new java.util.concurrent.CountDownLatch(1);

    /**
     * Installs capture on a background thread, so the agent answers
     * sooner; invocations wait for it (awaitInstalled) so the statements
     * they run are captured.
     */
    void installAsync() {
        reason = "installing";
        Thread t = new Thread(() -> {
            try {
                install();
            } finally {
                installed.countDown();
            }
        }, "dbg-agent-sql-install");
        t.setDaemon(true);
        t.start();
    }

    void awaitInstalled(long millis) {
        try {
            installed.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void install() {
        SqlHooks.install(this);
        try {
            if (forceWrap) {
                throw new IllegalStateException("instrumentation disabled by sqlMode=wrap");
            }
            if (!inst.isRetransformClassesSupported()) {
                throw new IllegalStateException("the JVM does not support class retransformation");
            }
            // Loaded only now: it links against the JDK's internal ASM,
            // which SqlInstrumenter opens to the agent first.
            SqlInstrumenter.install(inst, this);
            available = true;
            mode = "retransform";
            reason = null;
        } catch (Throwable t) {
            String why = "JDBC classes cannot be instrumented: " + t;
            try {
                int n = JdbcWrap.install();
                if (n > 0) {
                    available = true;
                    mode = "driver-wrap";
                    reason = why + "; only connections opened from now on through DriverManager are captured ("
                            + n + " driver(s) wrapped)";
                    return;
                }
                reason = why + "; and no JDBC driver is registered with DriverManager to wrap";
            } catch (Throwable w) {
                reason = why + "; wrapping the DriverManager drivers failed too: " + w;
            }
        }
    }

    synchronized void instrumented(String cls) {
        if (instrumented.size() < 200) {
            instrumented.add(cls);
        }
    }

    synchronized void problem(String why) {
        if (problems.size() < 20) {
            problems.add(why);
        }
    }

    synchronized Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("available", available);
        m.put("mode", mode);
        String why = reason;
        if (available && why == null && instrumented.isEmpty()) {
            why = "no JDBC driver class is loaded yet; statements are captured once one loads";
        }
        m.put("reason", why);
        m.put("instrumentedClasses", new ArrayList<>(instrumented));
        m.put("problems", new ArrayList<>(problems));
        m.put("entries", entries.size());
        m.put("dropped", entries.dropped());
        return m;
    }

    boolean available() {
        return available;
    }

    long lastSeq() {
        return entries.lastSeq();
    }

    void record(String sql, List<String> params, long nanos, String error) {
        if (sql == null) {
            sql = "<unknown statement>";
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("sql", sql.length() > 20000 ? sql.substring(0, 20000) + "..." : sql);
        e.put("parameters", params);
        e.put("durationMillis", nanos / 1_000_000.0);
        e.put("error", error);
        e.put("thread", Thread.currentThread().getName());
        entries.add(e, 64 + sql.length() + params.toString().length());
    }

    List<Map<String, Object>> since(long since, int limit, String keyword, String thread) {
        return entries.since(since, limit, e -> (thread == null || thread.equals(e.get("thread")))
                && (keyword == null || keyword.isEmpty() || String.valueOf(e.get("sql")).toLowerCase().contains(keyword.toLowerCase())));
    }
}
