package dbg.agent;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import java.util.regex.Pattern;

/**
 * Captures System.out/err, java.util.logging and (when present) Logback
 * into a bounded buffer (entries and bytes). ANSI escapes are stripped.
 * Thread-safe.
 */
final class LogCapture {
    private static final int MAX_ENTRIES = 5000;
    private static final int MAX_BYTES = 2 << 20;
    private static final int MAX_MESSAGE = 16 << 10;
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]|\u001B[@-Z\\\\-_]");

    private final EntryBuffer entries = new EntryBuffer(MAX_ENTRIES, MAX_BYTES);
    private final List<String> sources = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();

    void install(java.lang.instrument.Instrumentation inst) {
        try {
            System.setOut(new PrintStream(new Tee(System.out, "INFO", "System.out"), true));
            System.setErr(new PrintStream(new Tee(System.err, "ERROR", "System.err"), true));
            addSource("System.out/err");
        } catch (Throwable t) {
            addProblem("System.out/err: " + t);
        }
        try {
            java.util.logging.Logger root = LogManager.getLogManager().getLogger("");
            root.addHandler(new JulHandler());
            addSource("java.util.logging");
        } catch (Throwable t) {
            addProblem("java.util.logging: " + t);
        }
        installLogback(inst);
        installLog4j2(inst);
    }

    private synchronized void addSource(String s) {
        sources.add(s);
    }

    private synchronized void addProblem(String s) {
        problems.add(s);
    }

    synchronized Map<String, Object> status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("available", !sources.isEmpty());
        m.put("sources", new ArrayList<>(sources));
        m.put("problems", new ArrayList<>(problems));
        m.put("entries", entries.size());
        m.put("dropped", entries.dropped());
        return m;
    }

    long lastSeq() {
        return entries.lastSeq();
    }

    void add(String level, String logger, String thread, String message, String throwable) {
        if (Boolean.TRUE.equals(INSIDE.get())) {
            return;
        }
        message = clean(message);
        throwable = throwable == null ? null : clean(throwable);
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("level", level);
        e.put("logger", logger);
        e.put("thread", thread);
        e.put("message", message);
        e.put("throwable", throwable);
        entries.add(e, 64 + message.length() + (throwable == null ? 0 : throwable.length()));
    }

    private static String clean(String s) {
        if (s == null) {
            return "";
        }
        s = ANSI.matcher(s).replaceAll("");
        if (s.length() > MAX_MESSAGE) {
            s = s.substring(0, MAX_MESSAGE) + "...";
        }
        return s;
    }

    /** Entries with seq > since, newest limit, filtered by level (minimum), keyword and thread. */
    List<Map<String, Object>> since(long since, int limit, String level, String keyword, String thread) {
        int min = rank(level);
        return entries.since(since, limit, e -> {
            if (level != null && !level.isEmpty() && rank((String) e.get("level")) < min) {
                return false;
            }
            if (thread != null && !thread.equals(e.get("thread"))) {
                return false;
            }
            if (keyword != null && !keyword.isEmpty()) {
                String k = keyword.toLowerCase();
                String text = (e.get("message") + "\n" + e.get("logger") + "\n" + (e.get("throwable") == null ? "" : e.get("throwable"))).toLowerCase();
                return text.contains(k);
            }
            return true;
        });
    }

    static int rank(String level) {
        if (level == null) {
            return 0;
        }
        switch (level.toUpperCase()) {
            case "TRACE": case "FINEST": case "FINER": return 1;
            case "DEBUG": case "FINE": case "CONFIG": return 2;
            case "INFO": return 3;
            case "WARN": case "WARNING": return 4;
            case "ERROR": case "SEVERE": case "FATAL": return 5;
            default: return 0;
        }
    }

    static String julLevel(Level l) {
        int v = l.intValue();
        if (v >= Level.SEVERE.intValue()) {
            return "ERROR";
        }
        if (v >= Level.WARNING.intValue()) {
            return "WARN";
        }
        if (v >= Level.INFO.intValue()) {
            return "INFO";
        }
        if (v >= Level.FINE.intValue()) {
            return "DEBUG";
        }
        return "TRACE";
    }

    private final class JulHandler extends Handler {
        private final SimpleFormatter fmt = new SimpleFormatter();

        @Override
        public void publish(LogRecord r) {
            if (r == null) {
                return;
            }
            String msg;
            try {
                msg = fmt.formatMessage(r);
            } catch (RuntimeException e) {
                msg = String.valueOf(r.getMessage());
            }
            add(julLevel(r.getLevel()), r.getLoggerName(), Thread.currentThread().getName(), msg,
                    r.getThrown() == null ? null : Invoker.stackTrace(r.getThrown()));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /** Passes bytes through to the original stream and records complete lines. */
    private final class Tee extends OutputStream {
        private final PrintStream orig;
        private final String level;
        private final String logger;
        private final ThreadLocal<ByteArrayOutputStream> line = ThreadLocal.withInitial(ByteArrayOutputStream::new);

        Tee(PrintStream orig, String level, String logger) {
            this.orig = orig;
            this.level = level;
            this.logger = logger;
        }

        @Override
        public void write(int b) {
            orig.write(b);
            collect(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            orig.write(b, off, len);
            collect(b, off, len);
        }

        @Override
        public void flush() {
            orig.flush();
        }

        private void collect(byte[] b, int off, int len) {
            ByteArrayOutputStream buf = line.get();
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    String s = new String(buf.toByteArray(), StandardCharsets.UTF_8);
                    buf.reset();
                    if (s.endsWith("\r")) {
                        s = s.substring(0, s.length() - 1);
                    }
                    add(level, logger, Thread.currentThread().getName(), s, null);
                } else if (buf.size() < MAX_MESSAGE) {
                    buf.write(b[i]);
                }
            }
        }
    }

    /** Adds a proxy appender to Logback's root logger when Logback is the SLF4J backend. */
    private void installLogback(java.lang.instrument.Instrumentation inst) {
        try {
            ClassLoader cl;
            Class<?> lf = null;
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (c.getName().equals("org.slf4j.LoggerFactory")) {
                    lf = c;
                }
            }
            if (lf == null) {
                return;
            }
            cl = lf.getClassLoader();
            Object factory = lf.getMethod("getILoggerFactory").invoke(null);
            if (!factory.getClass().getName().equals("ch.qos.logback.classic.LoggerContext")) {
                return;
            }
            Object root = factory.getClass().getMethod("getLogger", String.class).invoke(factory, "ROOT");
            Class<?> appender = Class.forName("ch.qos.logback.core.Appender", false, cl);
            InvocationHandler h = (proxy, m, args) -> logbackCall(proxy, m, args);
            Object p = Proxy.newProxyInstance(cl, new Class<?>[] {appender}, h);
            root.getClass().getMethod("addAppender", appender).invoke(root, p);
            addSource("logback");
        } catch (Throwable t) {
            addProblem("logback: " + t);
        }
    }

    /** Adds a proxy appender to every logger config of Log4j2's current context when log4j-core is loaded. */
    private void installLog4j2(java.lang.instrument.Instrumentation inst) {
        try {
            Class<?> lm = null;
            boolean core = false;
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (c.getName().equals("org.apache.logging.log4j.LogManager")) {
                    lm = c;
                } else if (c.getName().equals("org.apache.logging.log4j.core.LoggerContext")) {
                    core = true;
                }
            }
            if (lm == null || !core) {
                return;
            }
            ClassLoader cl = lm.getClassLoader();
            Object ctx = lm.getMethod("getContext", boolean.class).invoke(null, false);
            if (!ctx.getClass().getName().equals("org.apache.logging.log4j.core.LoggerContext")) {
                return;
            }
            Object config = ctx.getClass().getMethod("getConfiguration").invoke(ctx);
            Class<?> appenderType = Class.forName("org.apache.logging.log4j.core.Appender", false, cl);
            Class<?> stateType = Class.forName("org.apache.logging.log4j.core.LifeCycle$State", false, cl);
            Class<?> levelType = Class.forName("org.apache.logging.log4j.Level", false, cl);
            Class<?> filterType = Class.forName("org.apache.logging.log4j.core.Filter", false, cl);
            Object started = enumConstant(stateType, "STARTED");
            InvocationHandler h = (proxy, m, args) -> log4j2Call(proxy, m, args, started);
            Object appender = Proxy.newProxyInstance(cl, new Class<?>[] {appenderType}, h);
            Class<?> configType = Class.forName("org.apache.logging.log4j.core.config.Configuration", false, cl);
            configType.getMethod("addAppender", appenderType).invoke(config, appender);
            Method addTo = Class.forName("org.apache.logging.log4j.core.config.LoggerConfig", false, cl)
                    .getMethod("addAppender", appenderType, levelType, filterType);
            addTo.invoke(configType.getMethod("getRootLogger").invoke(config), appender, null, null);
            Map<?, ?> loggers = (Map<?, ?>) configType.getMethod("getLoggers").invoke(config);
            for (Object lc : loggers.values()) {
                addTo.invoke(lc, appender, null, null);
            }
            ctx.getClass().getMethod("updateLoggers").invoke(ctx);
            addSource("log4j2");
        } catch (Throwable t) {
            addProblem("log4j2: " + t);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }

    private Object log4j2Call(Object proxy, Method m, Object[] args, Object started) throws Exception {
        switch (m.getName()) {
            case "append":
                Object ev = args[0];
                Object msg = get(ev, "getMessage");
                String text = msg == null ? "" : String.valueOf(get(msg, "getFormattedMessage"));
                Object thrown = get(ev, "getThrown");
                addEvent(ev, text, thrown instanceof Throwable ? Invoker.stackTrace((Throwable) thrown) : null);
                return null;
            case "getName":
                return "dbg";
            case "getState":
                return started;
            case "isStarted":
                return true;
            case "isStopped":
                return false;
            case "ignoreExceptions":
                return true;
            default:
                return objectDefaults(proxy, m, args);
        }
    }

    /**
     * Records a Logback or Log4j2 event: both name its level, logger and
     * thread with the same getters.
     */
    private void addEvent(Object ev, String message, String throwable) throws Exception {
        add(String.valueOf(get(ev, "getLevel")), String.valueOf(get(ev, "getLoggerName")), String.valueOf(get(ev, "getThreadName")),
                message, throwable);
    }

    /** Calls the public no-argument method getter of o, found by reflection. */
    private static Object get(Object o, String getter) throws Exception {
        return o.getClass().getMethod(getter).invoke(o);
    }

    private static Object objectDefaults(Object proxy, Method m, Object[] args) {
        switch (m.getName()) {
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            case "toString":
                return "dbg-appender";
            default:
                Class<?> r = m.getReturnType();
                if (r == boolean.class) {
                    return false;
                }
                if (r.isPrimitive() && r != void.class) {
                    return 0;
                }
                return null;
        }
    }

    private Object logbackCall(Object proxy, Method m, Object[] args) throws Exception {
        switch (m.getName()) {
            case "doAppend":
                Object ev = args[0];
                Object tp = get(ev, "getThrowableProxy");
                String thr = null;
                if (tp != null) {
                    thr = get(tp, "getClassName") + ": " + get(tp, "getMessage");
                }
                addEvent(ev, String.valueOf(get(ev, "getFormattedMessage")), thr);
                return null;
            case "getName":
                return "dbg";
            case "isStarted":
                return true;
            default:
                return objectDefaults(proxy, m, args);
        }
    }
}
