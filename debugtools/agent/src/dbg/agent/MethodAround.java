package dbg.agent;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Method Around scripts: a Java class with any of the hooks
 *
 * <pre>
 *   onBefore(Object[] args)                  // may replace elements of args
 *   Object onAfter(Object[] args, Object result)  // a non-void return replaces the result
 *   onException(Object[] args, Throwable t)
 *   onFinally(Object[] args)
 * </pre>
 *
 * static or on an instance made with the no-argument constructor. The
 * script is compiled in the target with javax.tools, so the target must
 * run on a JDK. Compiled scripts are cached by identity.
 */
final class MethodAround {
    private static final Pattern PKG = Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;");
    private static final Pattern CLS = Pattern.compile("\\bclass\\s+([A-Za-z_$][\\w$]*)");
    private static final Map<String, MethodAround> CACHE = new LinkedHashMap<String, MethodAround>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, MethodAround> e) {
            return size() > 32;
        }
    };

    private final Object target;
    private final Map<String, Method> hooks = new HashMap<>();

    private MethodAround(Class<?> c) throws Exception {
        Object inst = null;
        for (Method m : c.getDeclaredMethods()) {
            String n = m.getName();
            if (n.equals("onBefore") || n.equals("onAfter") || n.equals("onException") || n.equals("onFinally")) {
                m.setAccessible(true);
                hooks.put(n, m);
                if (!Modifier.isStatic(m.getModifiers()) && inst == null) {
                    java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor();
                    k.setAccessible(true);
                    inst = k.newInstance();
                }
            }
        }
        if (hooks.isEmpty()) {
            throw new IllegalArgumentException("the Method Around script " + c.getName()
                    + " defines none of onBefore, onAfter, onException, onFinally");
        }
        target = inst;
    }

    static MethodAround load(String source, String identity, ClassLoader parent) throws Exception {
        String key = (identity == null || identity.isEmpty() ? Integer.toHexString(source.hashCode()) : identity)
                + "@" + Agent.loaderId(parent);
        synchronized (CACHE) {
            MethodAround m = CACHE.get(key);
            if (m != null) {
                return m;
            }
        }
        MethodAround m = new MethodAround(compile(source, parent));
        synchronized (CACHE) {
            CACHE.put(key, m);
        }
        return m;
    }

    void before(Object[] args) throws Throwable {
        call("onBefore", args, null);
    }

    Object after(Object[] args, Object result) throws Throwable {
        Method m = hooks.get("onAfter");
        if (m == null) {
            return result;
        }
        Object r = call("onAfter", args, result);
        return m.getReturnType() == void.class ? result : r;
    }

    void exception(Object[] args, Throwable t) throws Throwable {
        call("onException", args, t);
    }

    void afterAll(Object[] args) throws Throwable {
        call("onFinally", args, null);
    }

    private Object call(String name, Object[] args, Object extra) throws Throwable {
        Method m = hooks.get(name);
        if (m == null) {
            return null;
        }
        Object[] params;
        switch (m.getParameterCount()) {
            case 0: params = new Object[0]; break;
            case 1: params = new Object[] {args}; break;
            default: params = new Object[] {args, extra}; break;
        }
        try {
            return m.invoke(Modifier.isStatic(m.getModifiers()) ? null : target, params);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Class<?> compile(String source, ClassLoader parent) throws Exception {
        JavaCompiler javac;
        try {
            javac = ToolProvider.getSystemJavaCompiler();
        } catch (Throwable t) {
            javac = null;
        }
        if (javac == null) {
            throw new IllegalStateException("the target JVM has no Java compiler (it runs on a JRE, or the java.compiler module is missing); "
                    + "Method Around scripts need the target to run on a JDK");
        }
        Matcher cm = CLS.matcher(source);
        if (!cm.find()) {
            throw new IllegalArgumentException("the Method Around script declares no class");
        }
        Matcher pm = PKG.matcher(source);
        String name = (pm.find() ? pm.group(1) + "." : "") + cm.group(1);
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        StandardJavaFileManager std = javac.getStandardFileManager(diags, null, null);
        Map<String, ByteArrayOutputStream> out = new HashMap<>();
        JavaFileManager fm = new ForwardingJavaFileManager<JavaFileManager>(std) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location loc, String className, JavaFileObject.Kind kind, FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        ByteArrayOutputStream b = new ByteArrayOutputStream();
                        out.put(className, b);
                        return b;
                    }
                };
            }
        };
        JavaFileObject src = new SimpleJavaFileObject(URI.create("string:///" + name.replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        List<String> opts = new ArrayList<>();
        opts.add("-classpath");
        opts.add(classpath(parent));
        opts.add("-proc:none");
        Boolean ok = javac.getTask(null, fm, diags, opts, null, List.of(src)).call();
        if (!Boolean.TRUE.equals(ok)) {
            StringBuilder b = new StringBuilder("the Method Around script does not compile:");
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    b.append("\n  line ").append(d.getLineNumber()).append(": ").append(d.getMessage(null));
                }
            }
            throw new IllegalArgumentException(b.toString());
        }
        ClassLoader loader = new ClassLoader(parent) {
            @Override
            protected Class<?> findClass(String n) throws ClassNotFoundException {
                ByteArrayOutputStream b = out.get(n);
                if (b == null) {
                    throw new ClassNotFoundException(n);
                }
                byte[] bytes = b.toByteArray();
                return defineClass(n, bytes, 0, bytes.length);
            }
        };
        return loader.loadClass(name);
    }

    private static String classpath(ClassLoader cl) {
        List<String> parts = new ArrayList<>();
        parts.add(System.getProperty("java.class.path", ""));
        for (ClassLoader l = cl; l != null; l = l.getParent()) {
            if (l instanceof URLClassLoader) {
                for (URL u : ((URLClassLoader) l).getURLs()) {
                    if ("file".equals(u.getProtocol())) {
                        parts.add(new File(u.getPath()).getPath());
                    }
                }
            }
        }
        return String.join(File.pathSeparator, parts);
    }
}
