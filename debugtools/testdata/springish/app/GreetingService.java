package app;

/** A bean without a no-argument constructor: only the context has it. */
public class GreetingService {
    private final String prefix;

    public GreetingService(String prefix) {
        this.prefix = prefix;
    }

    public String greet(String name) {
        return prefix + name;
    }

    public String describe(Object bean) {
        return "bean " + bean;
    }
}
