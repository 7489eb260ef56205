package dbg.agent;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders objects for the JSON and DEBUG result views, bounded in depth and size. */
final class ObjectViews {
    private static final int MAX_ITEMS = 200;

    private ObjectViews() {}

    static boolean isSimple(Class<?> c) {
        return c.isPrimitive() || c == String.class || Number.class.isAssignableFrom(c) || c == Boolean.class
                || c == Character.class || c.isEnum() || CharSequence.class.isAssignableFrom(c)
                || c.getName().startsWith("java.time.") || c == java.util.Date.class || c == java.util.UUID.class
                || c == Class.class;
    }

    /** A plain-data copy of o (maps, lists, strings, numbers) that Json.write can print. */
    static Object toPlain(Object o) {
        return plain(o, 0, new IdentityHashMap<>());
    }

    private static Object plain(Object o, int depth, IdentityHashMap<Object, Boolean> seen) {
        if (o == null) {
            return null;
        }
        Class<?> c = o.getClass();
        if (o instanceof Number && !(o instanceof Json.Num) || o instanceof Boolean || o instanceof String) {
            return o;
        }
        if (o instanceof Enum) {
            return ((Enum<?>) o).name();
        }
        if (isSimple(c)) {
            return String.valueOf(o);
        }
        if (depth > 12) {
            return String.valueOf(o);
        }
        if (seen.containsKey(o)) {
            return "$ref:" + c.getName() + "@" + Integer.toHexString(System.identityHashCode(o));
        }
        seen.put(o, Boolean.TRUE);
        try {
            if (o instanceof Map) {
                Map<String, Object> m = new LinkedHashMap<>();
                int n = 0;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                    if (n++ >= MAX_ITEMS) {
                        break;
                    }
                    m.put(String.valueOf(e.getKey()), plain(e.getValue(), depth + 1, seen));
                }
                return m;
            }
            if (o instanceof Collection) {
                List<Object> l = new ArrayList<>();
                for (Object x : (Collection<?>) o) {
                    if (l.size() >= MAX_ITEMS) {
                        break;
                    }
                    l.add(plain(x, depth + 1, seen));
                }
                return l;
            }
            if (c.isArray()) {
                List<Object> l = new ArrayList<>();
                int n = Math.min(Array.getLength(o), MAX_ITEMS);
                for (int i = 0; i < n; i++) {
                    l.add(plain(Array.get(o, i), depth + 1, seen));
                }
                return l;
            }
            if (o instanceof Throwable) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("type", c.getName());
                m.put("message", ((Throwable) o).getMessage());
                return m;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            for (Field f : fields(c)) {
                try {
                    m.put(f.getName(), plain(f.get(o), depth + 1, seen));
                } catch (Throwable t) {
                    m.put(f.getName(), "<unreadable: " + t.getClass().getSimpleName() + ">");
                }
            }
            if (m.isEmpty()) {
                return String.valueOf(o);
            }
            return m;
        } finally {
            seen.remove(o);
        }
    }

    /** Instance fields of c and its superclasses, made accessible where the module system allows. */
    static List<Field> fields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            chain.add(0, k);
        }
        for (Class<?> k : chain) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    out.add(f);
                } catch (RuntimeException ignored) {
                    // a JDK-internal field the module system hides
                }
            }
        }
        return out;
    }

    /** The DEBUG view: a tree of name, type, value and children, depth levels deep. */
    static Map<String, Object> debug(String name, Object o, int depth) {
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("name", name);
        n.put("type", o == null ? "null" : o.getClass().getName());
        String v;
        try {
            v = String.valueOf(o);
        } catch (Throwable t) {
            v = "<toString failed: " + t + ">";
        }
        if (v.length() > 1000) {
            v = v.substring(0, 1000) + "...";
        }
        n.put("value", v);
        if (o == null || isSimple(o.getClass())) {
            n.put("leaf", true);
            return n;
        }
        n.put("leaf", false);
        n.put("identity", Integer.toHexString(System.identityHashCode(o)));
        if (depth <= 0) {
            return n;
        }
        List<Object> children = new ArrayList<>();
        for (Map.Entry<String, Object> e : children(o).entrySet()) {
            children.add(debug(e.getKey(), e.getValue(), depth - 1));
        }
        n.put("children", children);
        return n;
    }

    /** The named children of o: fields, elements or entries. */
    static Map<String, Object> children(Object o) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (o == null) {
            return out;
        }
        Class<?> c = o.getClass();
        if (c.isArray()) {
            int n = Math.min(Array.getLength(o), MAX_ITEMS);
            for (int i = 0; i < n; i++) {
                out.put(Integer.toString(i), Array.get(o, i));
            }
        } else if (o instanceof Collection) {
            int i = 0;
            for (Iterator<?> it = ((Collection<?>) o).iterator(); it.hasNext() && i < MAX_ITEMS; i++) {
                out.put(Integer.toString(i), it.next());
            }
        } else if (o instanceof Map) {
            int i = 0;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                if (i++ >= MAX_ITEMS) {
                    break;
                }
                out.put(String.valueOf(e.getKey()), e.getValue());
            }
        } else {
            for (Field f : fields(c)) {
                try {
                    out.put(f.getName(), f.get(o));
                } catch (Throwable t) {
                    out.put(f.getName(), "<unreadable>");
                }
            }
        }
        return out;
    }

    /** Follows a dot-separated path of child names from o. */
    static Object at(Object o, String path) {
        if (path == null || path.isEmpty()) {
            return o;
        }
        Object cur = o;
        for (String part : path.split("\\.")) {
            Map<String, Object> ch = children(cur);
            if (!ch.containsKey(part)) {
                throw new IllegalArgumentException("no child '" + part + "' in " + (cur == null ? "null" : cur.getClass().getName()));
            }
            cur = ch.get(part);
        }
        return cur;
    }
}
