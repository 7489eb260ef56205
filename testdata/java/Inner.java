import java.util.function.IntUnaryOperator;

public class Inner {
    String tag = "outer";

    class Counter {
        int count;

        void bump(int by) {
            count += by; // BP:inner
        }
    }

    public static void main(String[] args) {
        Inner outer = new Inner();
        Counter c = outer.new Counter();
        c.bump(2);
        IntUnaryOperator twice = x -> {
            int y = x * 2; // BP:lambda
            return y;
        };
        Runnable r = new Runnable() {
            public void run() {
                System.out.println("anon " + c.count); // BP:anon
            }
        };
        r.run();
        System.out.println("twice=" + twice.applyAsInt(21)); // BP:calltwice
    }
}
