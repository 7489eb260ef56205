package app;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.ApplicationContext;

/** A context that becomes active a moment after start, like a slow Spring boot. */
public class MiniContext implements ApplicationContext {
    private final Map<String, Object> beans = new LinkedHashMap<>();
    private volatile boolean active;

    void register(String name, Object bean) {
        beans.put(name, bean);
    }

    void activate() {
        active = true;
    }

    @Override
    public <T> T getBean(Class<T> type) {
        for (Object b : beans.values()) {
            if (type.isInstance(b)) {
                return type.cast(b);
            }
        }
        throw new IllegalArgumentException("no bean of " + type);
    }

    @Override
    public Object getBean(String name) {
        Object b = beans.get(name);
        if (b == null) {
            throw new IllegalArgumentException("no bean " + name);
        }
        return b;
    }

    @Override
    public boolean isActive() {
        return active;
    }
}
