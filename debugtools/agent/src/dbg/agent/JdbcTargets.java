package dbg.agent;

import java.lang.instrument.ClassFileTransformer;

/** The JDBC class transformer, seen without linking against ASM. */
interface JdbcTargets extends ClassFileTransformer {
    int STATEMENT = 1;
    int PREPARED = 2;
    int CONNECTION = 4;

    /** Marks an already loaded class (internal name) for retransformation. */
    void target(String internalName, int kind);
}
