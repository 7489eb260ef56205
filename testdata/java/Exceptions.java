public class Exceptions {
    static void fail(String why) {
        throw new IllegalStateException(why); // BP:throw
    }

    public static void main(String[] args) {
        try {
            fail("caught one");
        } catch (IllegalStateException e) {
            System.out.println("caught: " + e.getMessage()); // BP:catch
        }
        fail("uncaught one");
    }
}
