// Prints its first argument, DBG_E2E and its working directory (the
// args/env/cwd conformance scenario).
public class Echo {
    public static void main(String[] args) {
        System.out.println(args[0] + " " + System.getenv("DBG_E2E") + " " + System.getProperty("user.dir"));
    }
}
