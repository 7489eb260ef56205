package dbg.agent;

import java.security.ProtectionDomain;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.Label;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;
import jdk.internal.org.objectweb.asm.commons.AdviceAdapter;

/** Adds TraceHooks calls to every concrete method of the classes marked for tracing. */
final class TraceTransformer implements MethodTracer.Transformer {
    private static final String HOOKS = "dbg/agent/TraceHooks";
    private final Set<String> targets = ConcurrentHashMap.newKeySet();
    private final Set<String> done = ConcurrentHashMap.newKeySet();

    @Override
    public boolean mark(String internalName) {
        if (done.contains(internalName)) {
            return false;
        }
        targets.add(internalName);
        return true;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd, byte[] bytes) {
        if (name == null || !targets.contains(name)) {
            return null;
        }
        try {
            ClassReader cr = new ClassReader(bytes);
            ClassWriter cw = new LoaderClassWriter(cr, loader);
            cr.accept(new ClassVisitor(Opcodes.ASM7, cw) {
                @Override
                public MethodVisitor visitMethod(int access, String mname, String desc, String sig, String[] exc) {
                    MethodVisitor mv = super.visitMethod(access, mname, desc, sig, exc);
                    if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE | Opcodes.ACC_SYNTHETIC)) != 0
                            || mname.startsWith("<")) {
                        return mv;
                    }
                    return new Traced(mv, access, mname, desc, name);
                }
            }, ClassReader.EXPAND_FRAMES);
            done.add(name);
            return cw.toByteArray();
        } catch (Throwable t) {
            return null;
        }
    }

    private static final class Traced extends AdviceAdapter {
        private final String owner;
        private final String mname;
        private final Label start = new Label();
        private final Label end = new Label();

        Traced(MethodVisitor mv, int access, String name, String desc, String owner) {
            super(Opcodes.ASM7, mv, access, name, desc);
            this.owner = owner;
            this.mname = name;
        }

        @Override
        protected void onMethodEnter() {
            visitLdcInsn(owner);
            visitLdcInsn(mname);
            visitMethodInsn(INVOKESTATIC, HOOKS, "enter", "(Ljava/lang/String;Ljava/lang/String;)V", false);
            visitLabel(start);
        }

        @Override
        protected void onMethodExit(int opcode) {
            if (opcode != ATHROW) {
                visitInsn(ACONST_NULL);
                visitMethodInsn(INVOKESTATIC, HOOKS, "exit", "(Ljava/lang/Throwable;)V", false);
            }
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            Label handler = new Label();
            visitLabel(end);
            visitTryCatchBlock(start, end, handler, "java/lang/Throwable");
            visitLabel(handler);
            dup();
            visitMethodInsn(INVOKESTATIC, HOOKS, "exit", "(Ljava/lang/Throwable;)V", false);
            visitInsn(ATHROW);
            super.visitMaxs(maxStack, maxLocals);
        }
    }
}
