package dbg.agent;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs a RunDTO: finds class, method and instance, converts arguments, invokes, keeps the result. */
final class Invoker {
    /** Headers of the running invocation, for scripts and application code that look. */
    public static final ThreadLocal<Map<String, String>> HEADERS = new ThreadLocal<>();
    /** The XXL-JOB parameter of the running invocation. */
    public static final ThreadLocal<String> XXL_JOB_PARAM = new ThreadLocal<>();

    private final Agent agent;

    Invoker(Agent agent) {
        this.agent = agent;
    }

    /** Runs the JSON RunDTO body and returns the run response body; never throws. */
    Map<String, Object> run(String body) {
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("identity", null);
        res.put("applicationName", agent.applicationName);
        res.put("classLoaderIdentity", null);
        res.put("className", null);
        res.put("methodName", null);
        res.put("methodParameterTypes", new ArrayList<>());
        res.put("resultClassType", "NULL");
        res.put("printResult", null);
        res.put("throwable", null);
        res.put("offsetPath", null);
        res.put("traceOffsetPath", null);
        res.put("duration", 0);
        try {
            Object parsed = Json.parse(body);
            if (!(parsed instanceof Map)) {
                throw new IllegalArgumentException("the run request is not a JSON object");
            }
            run((Map<?, ?>) parsed, res);
        } catch (Throwable t) {
            res.put("throwable", stackTrace(t));
        }
        return res;
    }

    private void run(Map<?, ?> dto, Map<String, Object> res) throws Throwable {
        agent.sql.awaitInstalled(10_000);
        res.put("identity", dto.get("identity"));
        String className = str(dto.get("targetClassName"));
        String methodName = str(dto.get("targetMethodName"));
        res.put("className", className);
        res.put("methodName", methodName);
        if (className == null || methodName == null) {
            throw new IllegalArgumentException("targetClassName and targetMethodName are required");
        }
        List<String> wantTypes = new ArrayList<>();
        if (dto.get("targetMethodParameterTypes") instanceof List) {
            for (Object o : (List<?>) dto.get("targetMethodParameterTypes")) {
                wantTypes.add(String.valueOf(o));
            }
        }
        Map<?, ?> content = dto.get("targetMethodContent") instanceof Map ? (Map<?, ?>) dto.get("targetMethodContent") : Map.of();

        ClassLoader requested = null;
        if (dto.get("classLoader") instanceof Map) {
            String id = str(((Map<?, ?>) dto.get("classLoader")).get("identity"));
            if (id != null && !id.isEmpty()) {
                requested = agent.findLoader(id);
                if (requested == null) {
                    throw new IllegalArgumentException("no class loader with identity " + id + " in the target");
                }
            }
        }
        Class<?> cls = findClass(className, requested);
        ClassLoader cl = cls.getClassLoader();
        res.put("classLoaderIdentity", Agent.loaderId(cl));
        Method m = findMethod(cls, methodName, wantTypes, content.size());
        List<String> types = new ArrayList<>();
        for (Class<?> p : m.getParameterTypes()) {
            types.add(p.getName());
        }
        res.put("methodParameterTypes", types);
        if (content.size() != m.getParameterCount()) {
            throw new IllegalArgumentException(cls.getName() + "." + methodName + " takes " + m.getParameterCount()
                    + " argument(s), argsJson has " + content.size());
        }
        Object[] args = new Object[m.getParameterCount()];
        int i = 0;
        for (Map.Entry<?, ?> e : content.entrySet()) {
            try {
                args[i] = Convert.argument(agent, e.getValue(), m.getParameterTypes()[i], m.getGenericParameterTypes()[i], cl);
            } catch (Exception ex) {
                throw new IllegalArgumentException("argument " + (i + 1) + " (" + e.getKey() + "): " + ex.getMessage(), ex);
            }
            i++;
        }
        Object instance = Modifier.isStatic(m.getModifiers()) ? null : InstanceFinder.find(agent, cls);

        MethodAround around = null;
        String aroundSrc = str(dto.get("methodAroundContent"));
        if (aroundSrc != null && !aroundSrc.trim().isEmpty()) {
            String problem = compilerProblem();
            if (problem != null) {
                throw new IllegalStateException(problem + "; Method Around scripts need the target to run on a JDK");
            }
            around = MethodAround.load(aroundSrc, str(dto.get("methodAroundContentIdentity")), cl);
        }
        Map<?, ?> trace = dto.get("traceMethodDTO") instanceof Map ? (Map<?, ?>) dto.get("traceMethodDTO") : null;
        boolean tracing = trace != null && (truthy(trace.get("traceMethod")) || truthy(trace.get("traceSQL")));
        boolean traceMethods = trace != null && truthy(trace.get("traceMethod"));
        String traceProblem = null;
        if (traceMethods) {
            String include = str(trace.get("traceBusinessPackageRegexp"));
            if (include == null || include.isEmpty()) {
                include = cls.getPackageName().isEmpty() ? cls.getName() : cls.getPackageName() + ".";
            }
            traceProblem = agent.tracer.prepare(include, str(trace.get("traceIgnorePackageRegexp")));
        }

        Map<String, String> headers = new LinkedHashMap<>();
        if (dto.get("headers") instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) dto.get("headers")).entrySet()) {
                headers.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
            }
        }
        Thread me = Thread.currentThread();
        ClassLoader prevCl = me.getContextClassLoader();
        me.setContextClassLoader(cl);
        HEADERS.set(headers);
        XXL_JOB_PARAM.set(str(dto.get("xxlJobParam")));
        long sqlMark = agent.sql.lastSeq();
        long logMark = agent.logs.lastSeq();
        if (traceMethods && traceProblem == null) {
            int depth = trace.get("traceMaxDepth") instanceof Number ? ((Number) trace.get("traceMaxDepth")).intValue() : 10;
            TraceHooks.start(depth, truthy(trace.get("traceSkipStartGetSetCheckBox")));
        }
        long start = System.nanoTime();
        Object result = null;
        Throwable thrown = null;
        try {
            m.setAccessible(true);
            if (around != null) {
                around.before(args);
            }
            try {
                result = m.invoke(instance, args);
            } catch (InvocationTargetException ite) {
                throw ite.getCause();
            }
            if (around != null) {
                result = around.after(args, result);
            }
        } catch (Throwable t) {
            thrown = t;
            if (around != null) {
                try {
                    around.exception(args, t);
                } catch (Throwable ignored) {
                    // the original failure is what the caller sees
                }
            }
        } finally {
            Map<String, Object> calls = traceMethods && traceProblem == null ? TraceHooks.stop() : null;
            if (calls != null) {
                res.put("_calls", calls);
            }
            if (around != null) {
                try {
                    around.afterAll(args);
                } catch (Throwable ignored) {
                    // as above
                }
            }
            HEADERS.remove();
            XXL_JOB_PARAM.remove();
            me.setContextClassLoader(prevCl);
        }
        long durationMs = (System.nanoTime() - start) / 1_000_000;
        res.put("duration", durationMs);
        if (tracing) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("method", cls.getName() + "#" + methodName + types);
            t.put("durationMillis", durationMs);
            t.put("thread", me.getName());
            t.put("sql", agent.sql.since(sqlMark, 500, null, me.getName()));
            t.put("logs", agent.logs.since(logMark, 500, null, null, me.getName()));
            t.put("throwable", thrown == null ? null : thrown.toString());
            if (traceMethods) {
                Object calls = res.remove("_calls");
                t.put("calls", calls instanceof Map ? ((Map<?, ?>) calls).get("calls") : null);
                t.put("callsTruncated", calls instanceof Map ? ((Map<?, ?>) calls).get("truncated") : null);
                t.put("traceProblem", traceProblem);
            }
            res.put("traceOffsetPath", agent.results.put(t));
        }
        if (thrown != null) {
            res.put("throwable", stackTrace(thrown));
            res.put("resultClassType", "OBJECT");
            res.put("offsetPath", agent.results.put(thrown));
            return;
        }
        if (m.getReturnType() == void.class) {
            res.put("resultClassType", "VOID");
        } else if (result == null) {
            res.put("resultClassType", "NULL");
        } else {
            res.put("resultClassType", ObjectViews.isSimple(result.getClass()) ? "SIMPLE" : "OBJECT");
            res.put("printResult", safeToString(result));
            res.put("offsetPath", agent.results.put(result));
        }
    }

    /** Why javax.tools cannot compile in this JVM, or null when it can. */
    static String compilerProblem() {
        try {
            Class<?> tp = Class.forName("javax.tools.ToolProvider", true, ClassLoader.getSystemClassLoader());
            if (tp.getMethod("getSystemJavaCompiler").invoke(null) == null) {
                return "the target JVM has no Java compiler (it runs on a JRE)";
            }
            return null;
        } catch (Throwable t) {
            return "the target JVM has no javax.tools (the java.compiler module is not present)";
        }
    }

    private static boolean truthy(Object o) {
        return Boolean.TRUE.equals(o) || "true".equals(String.valueOf(o));
    }

    private static String str(Object o) {
        return o == null ? null : String.valueOf(o);
    }

    static String safeToString(Object o) {
        try {
            return String.valueOf(o);
        } catch (Throwable t) {
            return o.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(o)) + " (toString failed: " + t + ")";
        }
    }

    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    Class<?> findClass(String name, ClassLoader requested) throws ClassNotFoundException {
        if (requested != null) {
            return Class.forName(name, false, requested);
        }
        for (Class<?> c : agent.inst.getAllLoadedClasses()) {
            if (c.getName().equals(name)) {
                return c;
            }
        }
        try {
            return Class.forName(name, false, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ClassNotFoundException(name + " is not loaded in the target and not on its class path");
        }
    }

    static Method findMethod(Class<?> cls, String name, List<String> types, int argCount) throws NoSuchMethodException {
        List<Method> named = new ArrayList<>();
        for (Class<?> k = cls; k != null; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(name) && !m.isBridge() && !overridden(named, m)) {
                    named.add(m);
                }
            }
        }
        for (Class<?> i : cls.getInterfaces()) {
            for (Method m : i.getMethods()) {
                if (m.getName().equals(name) && m.isDefault() && !overridden(named, m)) {
                    named.add(m);
                }
            }
        }
        if (named.isEmpty()) {
            throw new NoSuchMethodException("no method " + name + " in " + cls.getName());
        }
        List<Method> match = new ArrayList<>();
        for (Method m : named) {
            if (!types.isEmpty()) {
                if (typesMatch(m.getParameterTypes(), types)) {
                    match.add(m);
                }
            } else if (named.size() == 1 || m.getParameterCount() == argCount) {
                match.add(m);
            }
        }
        if (match.size() == 1) {
            return match.get(0);
        }
        List<String> sigs = new ArrayList<>();
        for (Method m : named) {
            List<String> ps = new ArrayList<>();
            for (Class<?> p : m.getParameterTypes()) {
                ps.add(p.getName());
            }
            sigs.add(name + ps);
        }
        if (match.isEmpty()) {
            throw new NoSuchMethodException("no overload of " + cls.getName() + "." + name + " matches "
                    + (types.isEmpty() ? argCount + " argument(s)" : types.toString()) + "; candidates: " + sigs);
        }
        throw new NoSuchMethodException(cls.getName() + "." + name + " is overloaded; pass parameterTypes, one of " + sigs);
    }

    private static boolean overridden(List<Method> seen, Method m) {
        for (Method s : seen) {
            if (java.util.Arrays.equals(s.getParameterTypes(), m.getParameterTypes())) {
                return true;
            }
        }
        return false;
    }

    private static boolean typesMatch(Class<?>[] have, List<String> want) {
        if (have.length != want.size()) {
            return false;
        }
        for (int i = 0; i < have.length; i++) {
            String w = want.get(i).trim();
            int lt = w.indexOf('<');
            if (lt >= 0) {
                w = w.substring(0, lt); // generics are erased
            }
            Class<?> h = have[i];
            if (!(w.equals(h.getName()) || w.equals(h.getTypeName()) || w.equals(h.getSimpleName()) || w.equals(h.getCanonicalName()))) {
                return false;
            }
        }
        return true;
    }
}
