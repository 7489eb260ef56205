package org.springframework.context;

/** A minimal stand-in with the methods the agent calls reflectively. */
public interface ApplicationContext {
    <T> T getBean(Class<T> type);

    Object getBean(String name);

    boolean isActive();
}
