package dbg.agent;

import java.security.ProtectionDomain;
import java.sql.PreparedStatement;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.Label;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;
import jdk.internal.org.objectweb.asm.Type;
import jdk.internal.org.objectweb.asm.commons.AdviceAdapter;

/**
 * Adds calls to SqlHooks in JDBC driver classes: Connection.prepareStatement
 * and prepareCall record the SQL of the statement they return;
 * PreparedStatement setters record parameters; Statement execute methods
 * are timed, with their failure.
 */
final class SqlTransformer implements JdbcTargets {
    private static final String HOOKS = "dbg/agent/SqlHooks";
    private static final Set<String> EXECUTE = Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate",
            "executeBatch", "executeLargeBatch");

    private static final Set<String> SETTERS = setters();

    private final SqlCapture capture;
    private final Map<String, Integer> targets = new ConcurrentHashMap<>();

    SqlTransformer(SqlCapture capture) {
        this.capture = capture;
    }

    /** The parameter setters of PreparedStatement and CallableStatement (index-based ones are instrumented). */
    private static Set<String> setters() {
        Set<String> s = new java.util.HashSet<>();
        for (java.lang.reflect.Method m : PreparedStatement.class.getMethods()) {
            if (m.getName().startsWith("set")) {
                s.add(m.getName());
            }
        }
        return s;
    }

    @Override
    public void target(String internalName, int kind) {
        targets.put(internalName, kind);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd, byte[] bytes) {
        if (name == null || loader == null || name.startsWith("dbg/agent/") || name.startsWith("java/") || name.startsWith("jdk/")
                || name.startsWith("sun/") || name.startsWith("com/sun/")) {
            return null;
        }
        try {
            Integer kind = targets.get(name);
            ClassReader cr = new ClassReader(bytes);
            if (kind == null) {
                if (redefined != null) {
                    return null;
                }
                kind = kindOfInterfaces(cr.getInterfaces());
                if (kind == 0 || (cr.getAccess() & Opcodes.ACC_INTERFACE) != 0 || !SqlInstrumenter.hooksVisible(loader)) {
                    return null;
                }
            }
            ClassWriter cw = new LoaderClassWriter(cr, loader);
            cr.accept(new Visitor(cw, kind), ClassReader.EXPAND_FRAMES);
            capture.instrumented(name.replace('/', '.'));
            return cw.toByteArray();
        } catch (Throwable t) {
            capture.problem("instrument " + name + ": " + t);
            return null;
        }
    }

    private static int kindOfInterfaces(String[] ifaces) {
        int k = 0;
        for (String i : ifaces) {
            switch (i) {
                case "java/sql/Statement": k |= STATEMENT; break;
                case "java/sql/PreparedStatement":
                case "java/sql/CallableStatement": k |= STATEMENT | PREPARED; break;
                case "java/sql/Connection": k |= CONNECTION; break;
                default: break;
            }
        }
        return k;
    }

    private static final class Visitor extends ClassVisitor {
        private final int kind;

        Visitor(ClassVisitor cv, int kind) {
            super(Opcodes.ASM7, cv);
            this.kind = kind;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
            MethodVisitor mv = super.visitMethod(access, name, desc, sig, exc);
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_STATIC | Opcodes.ACC_BRIDGE)) != 0
                    || name.startsWith("<")) {
                return mv;
            }
            Type[] args = Type.getArgumentTypes(desc);
            Type ret = Type.getReturnType(desc);
            if ((kind & STATEMENT) != 0 && EXECUTE.contains(name)) {
                boolean withSql = args.length > 0 && args[0].getDescriptor().equals("Ljava/lang/String;");
                return new Execute(mv, access, name, desc, withSql);
            }
            if ((kind & PREPARED) != 0 && (access & Opcodes.ACC_PUBLIC) != 0 && SETTERS.contains(name) && args.length >= 2 && args[0].getSort() == Type.INT
                    && ret.getSort() == Type.VOID) {
                return new SetParam(mv, access, name, desc, args[1], name.equals("setNull"));
            }
            if ((kind & PREPARED) != 0 && name.equals("clearParameters") && args.length == 0) {
                return new ClearParams(mv, access, name, desc);
            }
            if ((kind & CONNECTION) != 0 && (name.equals("prepareStatement") || name.equals("prepareCall")) && args.length > 0
                    && args[0].getDescriptor().equals("Ljava/lang/String;") && ret.getSort() == Type.OBJECT) {
                return new Prepare(mv, access, name, desc);
            }
            return mv;
        }
    }

    /** Times an execute method: enter at start, exit on return and on any throwable. */
    private static final class Execute extends AdviceAdapter {
        private final boolean withSql;
        private final Label start = new Label();
        private final Label end = new Label();

        Execute(MethodVisitor mv, int access, String name, String desc, boolean withSql) {
            super(Opcodes.ASM7, mv, access, name, desc);
            this.withSql = withSql;
        }

        @Override
        protected void onMethodEnter() {
            loadThis();
            if (withSql) {
                loadArg(0);
            } else {
                visitInsn(ACONST_NULL);
            }
            visitMethodInsn(INVOKESTATIC, HOOKS, "enter", "(Ljava/lang/Object;Ljava/lang/String;)V", false);
            visitLabel(start);
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (opcode != ATHROW) {
                loadThis();
                visitInsn(ACONST_NULL);
                visitMethodInsn(INVOKESTATIC, HOOKS, "exit", "(Ljava/lang/Object;Ljava/lang/Throwable;)V", false);
            }
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            Label handler = new Label();
            visitLabel(end);
            visitTryCatchBlock(start, end, handler, "java/lang/Throwable");
            visitLabel(handler);
            dup();
            loadThis();
            swap();
            visitMethodInsn(INVOKESTATIC, HOOKS, "exit", "(Ljava/lang/Object;Ljava/lang/Throwable;)V", false);
            visitInsn(ATHROW);
            super.visitMaxs(maxStack, maxLocals);
        }
    }

    /** Records a bound parameter before the setter runs. */
    private static final class SetParam extends AdviceAdapter {
        private final Type valueType;
        private final boolean isNull;

        SetParam(MethodVisitor mv, int access, String name, String desc, Type valueType, boolean isNull) {
            super(Opcodes.ASM7, mv, access, name, desc);
            this.valueType = valueType;
            this.isNull = isNull;
        }

        @Override
        protected void onMethodEnter() {
            loadThis();
            loadArg(0);
            if (isNull) {
                visitInsn(ACONST_NULL);
            } else {
                loadArg(1);
                box(valueType);
            }
            visitMethodInsn(INVOKESTATIC, HOOKS, "param", "(Ljava/lang/Object;ILjava/lang/Object;)V", false);
        }
    }

    private static final class ClearParams extends AdviceAdapter {
        ClearParams(MethodVisitor mv, int access, String name, String desc) {
            super(Opcodes.ASM7, mv, access, name, desc);
        }

        @Override
        protected void onMethodEnter() {
            loadThis();
            visitMethodInsn(INVOKESTATIC, HOOKS, "clearParams", "(Ljava/lang/Object;)V", false);
        }
    }

    /** Records the SQL of the statement a prepare method returns. */
    private static final class Prepare extends AdviceAdapter {
        Prepare(MethodVisitor mv, int access, String name, String desc) {
            super(Opcodes.ASM7, mv, access, name, desc);
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (opcode == ARETURN) {
                dup();
                loadArg(0);
                visitMethodInsn(INVOKESTATIC, HOOKS, "prepared", "(Ljava/lang/Object;Ljava/lang/String;)V", false);
            }
        }
    }
}
