package dbg.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Method tracing for invocations that ask for it: the classes of the
 * business packages (traceBusinessPackageRegexp, default the target
 * class's package) get TraceHooks calls, installed once per class, and
 * record only on the invoking thread.
 */
final class MethodTracer {
    /** The ASM side, seen without linking against ASM. */
    interface Transformer extends ClassFileTransformer {
        /** Marks a class for instrumentation; false when it already is. */
        boolean mark(String internalName);
    }

    private final Instrumentation inst;
    private Transformer transformer;
    private String problem;

    MethodTracer(Instrumentation inst) {
        this.inst = inst;
    }

    /** Instruments the loaded classes matching include and not exclude; returns why not, or null. */
    synchronized String prepare(String include, String exclude) {
        if (problem != null) {
            return problem;
        }
        if (transformer == null) {
            try {
                SqlInstrumenter.openAsm(inst);
                transformer = (Transformer) Class.forName("dbg.agent.TraceTransformer").getDeclaredConstructor().newInstance();
                inst.addTransformer(transformer, true);
            } catch (Throwable t) {
                problem = "method tracing needs the JDK's internal ASM: " + t;
                return problem;
            }
        }
        Pattern inc = pattern(include);
        Pattern exc = exclude == null || exclude.isEmpty() ? null : pattern(exclude);
        List<Class<?>> todo = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            String n = c.getName();
            if (c.isInterface() || c.isArray() || c.isPrimitive() || c.getClassLoader() == null || n.startsWith("dbg.agent.")
                    || n.startsWith("java.") || n.startsWith("jdk.") || n.startsWith("sun.") || n.contains("$$Lambda")
                    || !inc.matcher(n).lookingAt() || (exc != null && exc.matcher(n).lookingAt()) || !inst.isModifiableClass(c)
                    || !SqlInstrumenter.hooksVisible(c.getClassLoader())) {
                continue;
            }
            if (transformer.mark(n.replace('.', '/'))) {
                todo.add(c);
            }
            if (todo.size() > 2000) {
                break;
            }
        }
        for (Class<?> c : todo) {
            try {
                inst.retransformClasses(c);
            } catch (Throwable ignored) {
                // that class is simply not traced
            }
        }
        return null;
    }

    /** A package prefix ("com.example") or a regular expression. */
    private static Pattern pattern(String s) {
        if (s.matches("[\\w.$]+")) {
            return Pattern.compile(Pattern.quote(s));
        }
        return Pattern.compile(s);
    }
}
