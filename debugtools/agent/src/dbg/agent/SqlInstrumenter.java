package dbg.agent;

import java.lang.instrument.Instrumentation;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opens the JDK's internal ASM to the agent, registers SqlTransformer
 * and retransforms the JDBC classes already loaded. Holds no ASM
 * references itself, so it links before the packages are opened.
 */
final class SqlInstrumenter {
    private SqlInstrumenter() {}

    private static boolean asmOpen;

    /** Exports the JDK's internal ASM packages to the agent (once). */
    static synchronized void openAsm(Instrumentation inst) {
        if (asmOpen) {
            return;
        }
        Module me = SqlInstrumenter.class.getModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.org.objectweb.asm", Set.of(me));
        exports.put("jdk.internal.org.objectweb.asm.commons", Set.of(me));
        inst.redefineModule(Object.class.getModule(), Set.of(), exports, Map.of(), Set.of(), Map.of());
        asmOpen = true;
    }

    static void install(Instrumentation inst, SqlCapture capture) throws Exception {
        Module me = SqlInstrumenter.class.getModule();
        JdbcTargets t;
        try {
            openAsm(inst);
            t = (JdbcTargets) Class.forName("dbg.agent.SqlTransformer").getDeclaredConstructor(SqlCapture.class).newInstance(capture);
        } catch (IllegalArgumentException | ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("this JDK has no usable internal ASM (jdk.internal.org.objectweb.asm): " + e, e);
        }
        List<Class<?>> targets = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            int kind = kindOf(c);
            if (kind == 0 || c.isInterface() || !inst.isModifiableClass(c) || c.getName().startsWith("dbg.agent.")
                    || java.lang.reflect.Proxy.isProxyClass(c) || c.getName().contains("$$Lambda")) {
                continue;
            }
            if (!hooksVisible(c.getClassLoader())) {
                capture.problem(c.getName() + " is loaded by a class loader that cannot see the agent");
                continue;
            }
            Module m = c.getModule();
            if (m.isNamed() && !m.canRead(me)) {
                inst.redefineModule(m, Set.of(me), Map.of(), Map.of(), Set.of(), Map.of());
            }
            t.target(c.getName().replace('.', '/'), kind);
            targets.add(c);
        }
        inst.addTransformer(t, true);
        for (Class<?> c : targets) {
            try {
                inst.retransformClasses(c);
            } catch (Throwable e) {
                capture.problem("retransform " + c.getName() + ": " + e);
            }
        }
    }

    static boolean hooksVisible(ClassLoader cl) {
        if (cl == null) {
            return false;
        }
        try {
            return Class.forName(SqlHooks.class.getName(), false, cl) == SqlHooks.class;
        } catch (Throwable t) {
            return false;
        }
    }

    static int kindOf(Class<?> c) {
        int k = 0;
        if (Statement.class.isAssignableFrom(c)) {
            k |= JdbcTargets.STATEMENT;
        }
        if (java.sql.PreparedStatement.class.isAssignableFrom(c)) {
            k |= JdbcTargets.PREPARED;
        }
        if (Connection.class.isAssignableFrom(c)) {
            k |= JdbcTargets.CONNECTION;
        }
        return k;
    }
}
