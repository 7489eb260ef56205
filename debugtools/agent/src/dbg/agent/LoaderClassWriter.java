package dbg.agent;

import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassWriter;

/**
 * A ClassWriter for a class being rewritten: it computes frames and maxima,
 * and finds the common super class of two types through the class's own
 * loader, without initializing anything. A type that loader cannot load
 * counts as java/lang/Object.
 */
final class LoaderClassWriter extends ClassWriter {
    private final ClassLoader loader;

    LoaderClassWriter(ClassReader cr, ClassLoader loader) {
        super(cr, ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        this.loader = loader;
    }

    @Override
    protected String getCommonSuperClass(String a, String b) {
        try {
            Class<?> x = Class.forName(a.replace('/', '.'), false, loader);
            Class<?> y = Class.forName(b.replace('/', '.'), false, loader);
            if (x.isAssignableFrom(y)) {
                return a;
            }
            if (y.isAssignableFrom(x)) {
                return b;
            }
            if (x.isInterface() || y.isInterface()) {
                return "java/lang/Object";
            }
            do {
                x = x.getSuperclass();
            } while (!x.isAssignableFrom(y));
            return x.getName().replace('.', '/');
        } catch (Throwable t) {
            return "java/lang/Object";
        }
    }
}
