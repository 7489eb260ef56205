package dbg.agent;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The fallback when JDBC classes cannot be instrumented: the drivers
 * registered with DriverManager are replaced by wrappers whose
 * connections and statements are proxies that report to SqlHooks. Only
 * connections opened afterwards through DriverManager are covered.
 */
final class JdbcWrap {
    private JdbcWrap() {}

    /** Wraps every registered driver; returns how many. */
    static int install() throws SQLException {
        int n = 0;
        List<Driver> drivers = Collections.list(DriverManager.getDrivers());
        for (Driver d : drivers) {
            if (d instanceof WrappedDriver) {
                continue;
            }
            DriverManager.registerDriver(new WrappedDriver(d));
            DriverManager.deregisterDriver(d);
            n++;
        }
        return n;
    }

    private static final class WrappedDriver implements Driver {
        private final Driver d;

        WrappedDriver(Driver d) {
            this.d = d;
        }

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            Connection c = d.connect(url, info);
            return c == null ? null : (Connection) proxy(Connection.class, c, null);
        }

        @Override
        public boolean acceptsURL(String url) throws SQLException {
            return d.acceptsURL(url);
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
            return d.getPropertyInfo(url, info);
        }

        @Override
        public int getMajorVersion() {
            return d.getMajorVersion();
        }

        @Override
        public int getMinorVersion() {
            return d.getMinorVersion();
        }

        @Override
        public boolean jdbcCompliant() {
            return d.jdbcCompliant();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return d.getParentLogger();
        }
    }

    private static Object proxy(Class<?> iface, Object target, String sql) {
        Object[] self = new Object[1];
        InvocationHandler h = (p, m, args) -> call(self[0], iface, target, m, args);
        self[0] = Proxy.newProxyInstance(JdbcWrap.class.getClassLoader(), new Class<?>[] {iface}, h);
        if (sql != null) {
            SqlHooks.prepared(self[0], sql);
        }
        return self[0];
    }

    private static Object call(Object proxy, Class<?> iface, Object target, Method m, Object[] args) throws Throwable {
        String name = m.getName();
        int argc = args == null ? 0 : args.length;
        boolean execute = iface != Connection.class && name.startsWith("execute");
        if (iface != Connection.class && argc >= 2 && args[0] instanceof Integer && name.startsWith("set")) {
            SqlHooks.param(proxy, (Integer) args[0], name.equals("setNull") ? null : args[1]);
        } else if (name.equals("clearParameters")) {
            SqlHooks.clearParams(proxy);
        }
        if (execute) {
            SqlHooks.enter(proxy, argc > 0 && args[0] instanceof String ? (String) args[0] : null);
        }
        Object r;
        try {
            r = m.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (execute) {
                SqlHooks.exit(proxy, e.getCause());
            }
            throw e.getCause();
        }
        if (execute) {
            SqlHooks.exit(proxy, null);
        }
        if (iface == Connection.class && r != null) {
            if (name.equals("createStatement")) {
                return proxy(Statement.class, r, null);
            }
            if (name.equals("prepareStatement") && argc > 0) {
                return proxy(PreparedStatement.class, r, (String) args[0]);
            }
            if (name.equals("prepareCall") && argc > 0) {
                return proxy(CallableStatement.class, r, (String) args[0]);
            }
        }
        return r;
    }
}
