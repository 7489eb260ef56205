package dbg.agent;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/** Converts RunContentDTO arguments ({type, content}) to Java values. */
final class Convert {
    private Convert() {}

    static Object argument(Agent agent, Object dto, Class<?> type, Type generic, ClassLoader cl) throws Exception {
        if (!(dto instanceof Map)) {
            // A bare value: treat it as simple content.
            return simple(dto, type, generic, cl);
        }
        Map<?, ?> m = (Map<?, ?>) dto;
        String kind = String.valueOf(m.get("type") == null ? "simple" : m.get("type")).toLowerCase();
        Object content = m.get("content");
        switch (kind) {
            case "simple":
                return simple(content, type, generic, cl);
            case "enum":
                if (!type.isEnum()) {
                    throw new IllegalArgumentException("enum content for a " + type.getName() + " parameter");
                }
                return enumValue(type, text(content));
            case "json_entity":
            case "json":
                if (content == null) {
                    return null;
                }
                Object parsed = content instanceof String ? Json.parse((String) content) : content;
                return bind(parsed, type, generic, cl);
            case "bean":
                return InstanceFinder.springBeanByName(agent, text(content));
            case "class":
                return Class.forName(text(content), false, cl);
            case "file":
                return file(text(content), type);
            case "null":
                return null;
            default:
                throw new IllegalArgumentException("argument type '" + kind
                        + "' is not supported by dbg's agent (use simple, enum, json_entity, bean, class, file)");
        }
    }

    private static String text(Object content) {
        if (content == null) {
            return null;
        }
        return content instanceof String ? ((String) content).trim() : Json.write(content);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(Class<?> type, String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        try {
            return Enum.valueOf((Class) type, name);
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>();
            for (Object c : type.getEnumConstants()) {
                names.add(((Enum<?>) c).name());
            }
            throw new IllegalArgumentException("no constant " + name + " in " + type.getName() + "; one of " + names);
        }
    }

    private static Object file(String path, Class<?> type) throws Exception {
        if (path == null) {
            return null;
        }
        if (type == File.class) {
            return new File(path);
        }
        if (type == Path.class) {
            return Paths.get(path);
        }
        if (type == byte[].class) {
            return Files.readAllBytes(Paths.get(path));
        }
        if (type == InputStream.class) {
            return new ByteArrayInputStream(Files.readAllBytes(Paths.get(path)));
        }
        if (type == String.class) {
            return new String(Files.readAllBytes(Paths.get(path)), java.nio.charset.StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("file content for a " + type.getName()
                + " parameter (File, Path, byte[], InputStream or String expected)");
    }

    /** Converts simple content (text or a JSON scalar) to type. */
    static Object simple(Object content, Class<?> type, Type generic, ClassLoader cl) throws Exception {
        if (content == null) {
            return defaultValue(type);
        }
        if (!(content instanceof String) && !(content instanceof Number) && !(content instanceof Boolean)) {
            return bind(content, type, generic, cl);
        }
        String s = content.toString();
        if (type == String.class || type == Object.class || type == CharSequence.class) {
            return s;
        }
        String t = s.trim();
        if (t.isEmpty() || t.equals("null")) {
            if (type.isPrimitive()) {
                throw new IllegalArgumentException("empty value for a " + type.getName() + " parameter");
            }
            return null;
        }
        if (type == int.class || type == Integer.class) {
            return Integer.valueOf(t);
        }
        if (type == long.class || type == Long.class) {
            return Long.valueOf(t);
        }
        if (type == double.class || type == Double.class) {
            return Double.valueOf(t);
        }
        if (type == float.class || type == Float.class) {
            return Float.valueOf(t);
        }
        if (type == short.class || type == Short.class) {
            return Short.valueOf(t);
        }
        if (type == byte.class || type == Byte.class) {
            return Byte.valueOf(t);
        }
        if (type == boolean.class || type == Boolean.class) {
            if (!t.equalsIgnoreCase("true") && !t.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("not a boolean: " + t);
            }
            return Boolean.valueOf(t);
        }
        if (type == char.class || type == Character.class) {
            if (t.length() != 1) {
                throw new IllegalArgumentException("not a single character: " + t);
            }
            return t.charAt(0);
        }
        if (type == BigDecimal.class) {
            return new BigDecimal(t);
        }
        if (type == BigInteger.class) {
            return new BigInteger(t);
        }
        if (type.isEnum()) {
            return enumValue(type, t);
        }
        if (type == LocalDate.class) {
            return LocalDate.parse(t);
        }
        if (type == LocalDateTime.class) {
            return LocalDateTime.parse(t.replace(' ', 'T'));
        }
        if (type == LocalTime.class) {
            return LocalTime.parse(t);
        }
        if (type == Instant.class) {
            return Instant.parse(t);
        }
        if (type == UUID.class) {
            return UUID.fromString(t);
        }
        if (type == Date.class) {
            if (t.matches("-?\\d+")) {
                return new Date(Long.parseLong(t));
            }
            return Date.from(LocalDateTime.parse(t.replace(' ', 'T')).atZone(java.time.ZoneId.systemDefault()).toInstant());
        }
        if (type == Class.class) {
            return Class.forName(t, false, cl);
        }
        if (t.startsWith("{") || t.startsWith("[")) {
            return bind(Json.parse(t), type, generic, cl);
        }
        throw new IllegalArgumentException("cannot convert '" + t + "' to " + type.getName() + " as a simple value; use json_entity");
    }

    private static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        return simpleZero(type);
    }

    private static Object simpleZero(Class<?> type) {
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0d;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return (byte) 0;
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class) {
            return (Class<?>) t;
        }
        if (t instanceof ParameterizedType) {
            return (Class<?>) ((ParameterizedType) t).getRawType();
        }
        return Object.class;
    }

    private static Type typeArg(Type t, int i) {
        if (t instanceof ParameterizedType) {
            Type[] a = ((ParameterizedType) t).getActualTypeArguments();
            if (i < a.length) {
                return a[i];
            }
        }
        return Object.class;
    }

    /** Binds parsed JSON (maps, lists, scalars) to a value of type. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object bind(Object json, Class<?> type, Type generic, ClassLoader cl) throws Exception {
        if (json == null) {
            return defaultValue(type);
        }
        if (type == Object.class) {
            return json instanceof Json.Num ? numberOf((Json.Num) json) : json;
        }
        if (ObjectViews.isSimple(type) || type.isPrimitive()) {
            if (json instanceof Map || json instanceof List) {
                throw new IllegalArgumentException("a JSON object or array for a " + type.getName() + " value");
            }
            return simple(json.toString(), type, generic, cl);
        }
        if (type.isArray()) {
            List<?> l = json instanceof List ? (List<?>) json : List.of(json);
            Object arr = Array.newInstance(type.getComponentType(), l.size());
            for (int i = 0; i < l.size(); i++) {
                Array.set(arr, i, bind(l.get(i), type.getComponentType(), type.getComponentType(), cl));
            }
            return arr;
        }
        if (Collection.class.isAssignableFrom(type)) {
            List<?> l = json instanceof List ? (List<?>) json : List.of(json);
            Collection c;
            if (!type.isInterface() && !java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
                c = (Collection) type.getDeclaredConstructor().newInstance();
            } else if (SortedSet.class.isAssignableFrom(type)) {
                c = new TreeSet<>();
            } else if (Set.class.isAssignableFrom(type)) {
                c = new LinkedHashSet<>();
            } else {
                c = new ArrayList<>();
            }
            Type et = typeArg(generic, 0);
            for (Object x : l) {
                c.add(bind(x, raw(et), et, cl));
            }
            return c;
        }
        if (Map.class.isAssignableFrom(type)) {
            if (!(json instanceof Map)) {
                throw new IllegalArgumentException("a JSON object is needed for a " + type.getName());
            }
            Map out = !type.isInterface() && !java.lang.reflect.Modifier.isAbstract(type.getModifiers())
                    ? (Map) type.getDeclaredConstructor().newInstance() : new LinkedHashMap<>();
            Type kt = typeArg(generic, 0);
            Type vt = typeArg(generic, 1);
            for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet()) {
                out.put(bind(e.getKey(), raw(kt), kt, cl), bind(e.getValue(), raw(vt), vt, cl));
            }
            return out;
        }
        if (!(json instanceof Map)) {
            throw new IllegalArgumentException("a JSON object is needed for a " + type.getName() + ", got " + Json.write(json));
        }
        Constructor<?> ctor;
        try {
            ctor = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + " has no no-argument constructor to build it from JSON");
        }
        ctor.setAccessible(true);
        Object o = ctor.newInstance();
        Map<String, Field> byName = new LinkedHashMap<>();
        for (Field f : ObjectViews.fields(type)) {
            byName.put(f.getName(), f);
        }
        for (Map.Entry<?, ?> e : ((Map<?, ?>) json).entrySet()) {
            Field f = byName.get(String.valueOf(e.getKey()));
            if (f == null || java.lang.reflect.Modifier.isFinal(f.getModifiers())) {
                continue; // unknown properties are ignored, as JSON mappers do
            }
            f.set(o, bind(e.getValue(), f.getType(), f.getGenericType(), cl));
        }
        return o;
    }

    private static Object numberOf(Json.Num n) {
        try {
            return Long.valueOf(n.text);
        } catch (NumberFormatException e) {
            return Double.valueOf(n.text);
        }
    }

}
