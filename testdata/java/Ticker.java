// Prints a greeting every 50 ms for up to two minutes, from a method the
// live-edit tests replace in a copy while the program runs.
public class Ticker {
    static String greeting(int n) {
        return "old " + n; // RELOAD: greeting
    }

    public static void main(String[] args) throws Exception {
        for (int n = 0; n < 2400; n++) {
            System.out.println(greeting(n));
            Thread.sleep(50);
        }
    }
}
