package dbg.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The agent's HTTP endpoints (JSON): /getApplicationName, /allClassLoader,
 * /classLoader/hasClass, /result/type, /result/detail, /logs/recent,
 * /sql/recent, /spring/ready, /status.
 */
final class HttpApi {
    private final Agent agent;
    private final HttpServer server;

    HttpApi(Agent agent, String host, int port) throws IOException {
        this.agent = agent;
        this.server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "dbg-agent-http");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
    }

    int port() {
        return server.getAddress().getPort();
    }

    void start() {
        server.start();
    }

    private void handle(HttpExchange ex) throws IOException {
        int code = 200;
        Object body;
        try {
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            switch (ex.getRequestURI().getPath()) {
                case "/getApplicationName":
                    body = Map.of("applicationName", agent.applicationName);
                    break;
                case "/allClassLoader":
                    body = allClassLoaders();
                    break;
                case "/classLoader/hasClass":
                    body = hasClass(q);
                    break;
                case "/result/type":
                    body = resultType(q);
                    break;
                case "/result/detail":
                    body = resultDetail(q);
                    break;
                case "/logs/recent":
                    body = logs(q);
                    break;
                case "/sql/recent":
                    body = sql(q);
                    break;
                case "/spring/ready":
                    body = springReady();
                    break;
                case "/status":
                    body = status();
                    break;
                default:
                    code = 404;
                    body = error("no such endpoint: " + ex.getRequestURI().getPath());
            }
        } catch (IllegalArgumentException e) {
            code = 400;
            body = error(e.getMessage());
        } catch (Throwable t) {
            code = 500;
            body = error(t.toString());
        }
        byte[] b = (body instanceof String ? (String) body : Json.write(body)).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", body instanceof String ? "text/plain; charset=utf-8" : "application/json; charset=utf-8");
        ex.sendResponseHeaders(code, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private static Map<String, Object> error(String msg) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", msg);
        return m;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> m = new LinkedHashMap<>();
        if (raw == null) {
            return m;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            String k = eq < 0 ? kv : kv.substring(0, eq);
            String v = eq < 0 ? "" : kv.substring(eq + 1);
            m.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return m;
    }

    private static int intParam(Map<String, String> q, String k, int def) {
        String v = q.get(k);
        if (v == null || v.isEmpty()) {
            return def;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(k + " must be a number");
        }
    }

    private static long longParam(Map<String, String> q, String k) {
        String v = q.get(k);
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(k + " must be a number");
        }
    }

    private Object allClassLoaders() {
        List<Object> out = new ArrayList<>();
        ClassLoader def = ClassLoader.getSystemClassLoader();
        for (Map.Entry<ClassLoader, Integer> e : agent.allLoaders().entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", e.getKey().getClass().getName());
            m.put("identity", Agent.loaderId(e.getKey()));
            m.put("classCount", e.getValue());
            m.put("default", e.getKey() == def);
            out.add(m);
        }
        return out;
    }

    private Object hasClass(Map<String, String> q) {
        String name = q.get("className");
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("className is required");
        }
        ClassLoader cl = agent.findLoader(q.get("classLoaderIdentity"));
        boolean has;
        try {
            if (cl != null) {
                Class.forName(name, false, cl);
            } else {
                agent.invoker.findClass(name, null);
            }
            has = true;
        } catch (Throwable t) {
            has = false;
        }
        return Map.of("hasClass", has);
    }

    private Object stored(Map<String, String> q) {
        String off = q.get("offsetPath");
        if (off == null || !agent.results.has(off)) {
            throw new IllegalArgumentException("no stored result for offsetPath " + off + " (cleared, or never stored)");
        }
        return agent.results.get(off);
    }

    private Object resultType(Map<String, String> q) {
        Object o = stored(q);
        String type = q.getOrDefault("type", "TO_STRING").toUpperCase().replace("TOSTRING", "TO_STRING");
        switch (type) {
            case "JSON":
                return Json.write(ObjectViews.toPlain(o));
            case "DEBUG":
                return Json.write(ObjectViews.debug("result", o, intParam(q, "depth", 2)));
            case "TO_STRING":
                return Invoker.safeToString(o);
            default:
                throw new IllegalArgumentException("type must be TO_STRING, JSON or DEBUG");
        }
    }

    private Object resultDetail(Map<String, String> q) {
        Object o = stored(q);
        String path = q.getOrDefault("path", q.getOrDefault("filedOffset", ""));
        Object at = ObjectViews.at(o, path);
        String name = path.isEmpty() ? "result" : path.substring(path.lastIndexOf('.') + 1);
        return ObjectViews.debug(name, at, intParam(q, "depth", 1));
    }

    private Object logs(Map<String, String> q) {
        Map<String, Object> m = new LinkedHashMap<>(agent.logs.status());
        m.put("next", agent.logs.lastSeq());
        m.put("entries", agent.logs.since(longParam(q, "since"), intParam(q, "limit", 100), q.get("level"), q.get("keyword"), null));
        return m;
    }

    private Object sql(Map<String, String> q) {
        agent.sql.awaitInstalled(10_000);
        Map<String, Object> m = new LinkedHashMap<>(agent.sql.status());
        m.put("next", agent.sql.lastSeq());
        m.put("statements", agent.sql.since(longParam(q, "since"), intParam(q, "limit", 50), q.get("keyword"), null));
        return m;
    }

    private Object springReady() {
        boolean present = InstanceFinder.springPresent(agent);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("springPresent", present);
        boolean ready = !present;
        if (present) {
            Object ctx = InstanceFinder.springContext(agent);
            try {
                ready = ctx != null && Boolean.TRUE.equals(ctx.getClass().getMethod("isActive").invoke(ctx));
            } catch (Throwable t) {
                ready = ctx != null;
            }
        }
        m.put("ready", ready);
        return m;
    }

    private Object status() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("applicationName", agent.applicationName);
        m.put("pid", ProcessHandle.current().pid());
        m.put("javaVersion", System.getProperty("java.version"));
        String compiler = Invoker.compilerProblem();
        m.put("compiler", compiler == null);
        m.put("compilerProblem", compiler);
        m.put("logs", agent.logs.status());
        m.put("sql", agent.sql.status());
        m.put("results", agent.results.size());
        return m;
    }
}
