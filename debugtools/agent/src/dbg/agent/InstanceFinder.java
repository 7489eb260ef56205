package dbg.agent;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Finds the instance a method runs on: a Spring bean when a Spring
 * context exists; else a live instance reached from loaded classes'
 * static fields by a bounded walk; else a new one from a no-argument
 * constructor.
 */
final class InstanceFinder {
    private static final int MAX_OBJECTS = 200_000;
    private static final int MAX_DEPTH = 8;
    private static final int MAX_ELEMENTS = 2_000;
    private static final String SPRING_CONTEXT = "org.springframework.context.ApplicationContext";

    private InstanceFinder() {}

    static Object find(Agent agent, Class<?> target) throws Exception {
        Object ctx = springContext(agent);
        if (ctx != null) {
            try {
                Method getBean = ctx.getClass().getMethod("getBean", Class.class);
                Object bean = getBean.invoke(ctx, target);
                if (bean != null) {
                    return bean;
                }
            } catch (Throwable ignored) {
                // not a bean: look further
            }
        }
        Object live = walk(agent, target);
        if (live != null) {
            return live;
        }
        Constructor<?> c;
        try {
            c = target.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("no instance of " + target.getName()
                    + " was found (no Spring bean, none reachable from static fields) and it has no no-argument constructor");
        }
        c.setAccessible(true);
        return c.newInstance();
    }

    /** The Spring ApplicationContext, or null when Spring is absent or no context is reachable. */
    static Object springContext(Agent agent) {
        Class<?> ctxClass = loaded(agent, SPRING_CONTEXT);
        if (ctxClass == null) {
            return null;
        }
        return walk(agent, ctxClass);
    }

    static boolean springPresent(Agent agent) {
        return loaded(agent, SPRING_CONTEXT) != null;
    }

    static Object springBeanByName(Agent agent, String name) throws Exception {
        Object ctx = springContext(agent);
        if (ctx == null) {
            throw new IllegalArgumentException("bean arguments need a Spring context, and none was found in the target");
        }
        return ctx.getClass().getMethod("getBean", String.class).invoke(ctx, name);
    }

    private static Class<?> loaded(Agent agent, String name) {
        for (Class<?> c : agent.inst.getAllLoadedClasses()) {
            if (c.getName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static boolean jdkClass(String n) {
        return n.startsWith("java.") || n.startsWith("javax.") || n.startsWith("jdk.") || n.startsWith("sun.")
                || n.startsWith("com.sun.") || n.startsWith("dbg.agent.");
    }

    /** Breadth-first walk from static fields of non-JDK classes, bounded in objects and depth. */
    static Object walk(Agent agent, Class<?> target) {
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        ArrayDeque<Object[]> queue = new ArrayDeque<>();
        for (Class<?> c : agent.inst.getAllLoadedClasses()) {
            if (c.isArray() || c.isPrimitive() || c.getClassLoader() == null || jdkClass(c.getName())) {
                continue;
            }
            Field[] fs;
            try {
                fs = c.getDeclaredFields();
            } catch (Throwable t) {
                continue; // a class whose field types cannot be resolved
            }
            for (Field f : fs) {
                if (!Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    Object v = f.get(null);
                    if (v != null && !seen.containsKey(v)) {
                        if (target.isInstance(v)) {
                            return v;
                        }
                        seen.put(v, Boolean.TRUE);
                        queue.add(new Object[] {v, 1});
                    }
                } catch (Throwable ignored) {
                    // inaccessible or failing initializer
                }
            }
        }
        while (!queue.isEmpty() && seen.size() < MAX_OBJECTS) {
            Object[] e = queue.poll();
            Object o = e[0];
            int depth = (Integer) e[1];
            if (depth >= MAX_DEPTH) {
                continue;
            }
            for (Object child : children(o)) {
                if (child == null || seen.containsKey(child) || child instanceof String || child instanceof Class) {
                    continue;
                }
                if (target.isInstance(child)) {
                    return child;
                }
                seen.put(child, Boolean.TRUE);
                queue.add(new Object[] {child, depth + 1});
            }
        }
        return null;
    }

    private static Iterable<Object> children(Object o) {
        java.util.List<Object> out = new java.util.ArrayList<>();
        Class<?> c = o.getClass();
        try {
            if (c.isArray()) {
                if (!c.getComponentType().isPrimitive()) {
                    int n = Math.min(Array.getLength(o), MAX_ELEMENTS);
                    for (int i = 0; i < n; i++) {
                        out.add(Array.get(o, i));
                    }
                }
            } else if (o instanceof Map && jdkClass(c.getName())) {
                int n = 0;
                for (Map.Entry<?, ?> en : ((Map<?, ?>) o).entrySet()) {
                    if (n++ >= MAX_ELEMENTS) {
                        break;
                    }
                    out.add(en.getKey());
                    out.add(en.getValue());
                }
            } else if (o instanceof Collection && jdkClass(c.getName())) {
                int n = 0;
                for (Object x : (Collection<?>) o) {
                    if (n++ >= MAX_ELEMENTS) {
                        break;
                    }
                    out.add(x);
                }
            } else if (!jdkClass(c.getName())) {
                for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                            continue;
                        }
                        try {
                            f.setAccessible(true);
                            out.add(f.get(o));
                        } catch (Throwable ignored) {
                            // skip
                        }
                    }
                }
            }
        } catch (Throwable ignored) {
            // a concurrently modified collection: use what we have
        }
        return out;
    }
}
