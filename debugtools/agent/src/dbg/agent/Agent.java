package dbg.agent;

import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point of dbg's agent. Arguments are comma-separated key=value
 * pairs: port (or tcpPort, as the DebugTools agent names it) and httpPort
 * (0 = any free port), host (default
 * 127.0.0.1), applicationName, portFile (where the chosen ports are
 * written as JSON).
 *
 * Loading the agent twice keeps the first instance and only rewrites the
 * port file.
 */
public final class Agent {
    private static volatile Agent instance;

    final Instrumentation inst;
    final String applicationName;
    final Results results = new Results();
    final LogCapture logs = new LogCapture();
    final SqlCapture sql;
    final Invoker invoker;
    final MethodTracer tracer;
    long startupMillis;
    String httpProblem;
    TcpServer tcp;
    HttpApi http;

    private Agent(Instrumentation inst, Map<String, String> args) {
        this.inst = inst;
        String name = args.get("applicationName");
        if (name == null || name.isEmpty()) {
            name = defaultName();
        }
        this.applicationName = name;
        this.sql = new SqlCapture(inst, "wrap".equals(args.get("sqlMode")));
        this.invoker = new Invoker(this);
        this.tracer = new MethodTracer(inst);
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst);
    }

    static Agent get() {
        return instance;
    }

    private static synchronized void start(String rawArgs, Instrumentation inst) {
        long t0 = System.nanoTime();
        Map<String, String> args = parseArgs(rawArgs);
        try {
            Agent a = instance;
            if (a == null) {
                a = new Agent(inst, args);
                String host = args.getOrDefault("host", "127.0.0.1");
                a.tcp = new TcpServer(a, host, intArg(args, args.containsKey("port") ? "port" : "tcpPort"));
                try {
                    a.http = new HttpApi(a, host, intArg(args, "httpPort"));
                } catch (Throwable t) {
                    a.httpProblem = "no HTTP endpoints: " + t; // e.g. a runtime without jdk.httpserver
                }
                a.logs.install(inst);
                a.sql.installAsync();
                a.tcp.start();
                if (a.http != null) {
                    a.http.start();
                }
                instance = a;
            }
            a.startupMillis = (System.nanoTime() - t0) / 1_000_000;
            writePortFile(args.get("portFile"), a, null);
        } catch (Throwable t) {
            writePortFile(args.get("portFile"), null, t);
            if (t instanceof RuntimeException) {
                throw (RuntimeException) t;
            }
            throw new IllegalStateException("dbg agent failed to start: " + t, t);
        }
    }

    static Map<String, String> parseArgs(String raw) {
        Map<String, String> m = new LinkedHashMap<>();
        if (raw == null) {
            return m;
        }
        for (String part : raw.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                m.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
        }
        return m;
    }

    private static int intArg(Map<String, String> args, String key) {
        try {
            return Integer.parseInt(args.getOrDefault(key, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void writePortFile(String path, Agent a, Throwable failure) {
        if (path == null || path.isEmpty()) {
            return;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pid", ProcessHandle.current().pid());
        if (a != null) {
            m.put("port", a.tcp.port());
            m.put("httpPort", a.http == null ? 0 : a.http.port());
            if (a.httpProblem != null) {
                m.put("httpProblem", a.httpProblem);
            }
            m.put("applicationName", a.applicationName);
            m.put("host", a.tcp.host());
            m.put("startupMillis", a.startupMillis);
        }
        if (failure != null) {
            m.put("error", String.valueOf(failure));
        }
        try {
            File f = new File(path);
            File tmp = new File(path + ".tmp");
            Files.write(tmp.toPath(), Json.write(m).getBytes(StandardCharsets.UTF_8));
            Files.move(tmp.toPath(), f.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException ignored) {
            // the client times out waiting and says so
        }
    }

    private static String defaultName() {
        String cmd = System.getProperty("sun.java.command", "");
        String main = cmd.split(" ")[0];
        if (main.endsWith(".jar")) {
            main = new File(main).getName();
            return main.substring(0, main.length() - 4);
        }
        int dot = main.lastIndexOf('.');
        return dot >= 0 ? main.substring(dot + 1) : (main.isEmpty() ? "java" : main);
    }

    /** Hex identity of a class loader as the protocol names it ("0" = bootstrap). */
    static String loaderId(ClassLoader cl) {
        return cl == null ? "0" : Integer.toHexString(System.identityHashCode(cl));
    }

    /** Finds a class loader by identity among the loaders of loaded classes. */
    ClassLoader findLoader(String identity) {
        if (identity == null || identity.isEmpty()) {
            return null;
        }
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader cl = c.getClassLoader();
            if (cl != null && loaderId(cl).equals(identity)) {
                return cl;
            }
        }
        return null;
    }

    /** Every class loader with a loaded class, the default one first. */
    Map<ClassLoader, Integer> allLoaders() {
        Map<ClassLoader, Integer> m = new LinkedHashMap<>();
        m.put(ClassLoader.getSystemClassLoader(), 0);
        for (Class<?> c : inst.getAllLoadedClasses()) {
            ClassLoader cl = c.getClassLoader();
            if (cl != null) {
                m.merge(cl, 1, Integer::sum);
            }
        }
        return m;
    }
}
