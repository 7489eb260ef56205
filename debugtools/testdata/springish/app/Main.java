package app;

/** Starts a context that becomes active once the file args[0] exists. */
public class Main {
    static MiniContext context;

    public static void main(String[] args) throws Exception {
        context = new MiniContext();
        context.register("greetingService", new GreetingService("Hi, "));
        context.register("clock", new Object() {
            @Override
            public String toString() {
                return "Clock#1";
            }
        });
        System.out.println("READY");
        System.out.flush();
        java.io.File trigger = new java.io.File(args[0]);
        while (!trigger.exists()) {
            Thread.sleep(20);
        }
        context.activate();
        while (true) {
            Thread.sleep(60_000);
        }
    }
}
