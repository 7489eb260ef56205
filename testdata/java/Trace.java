public class Trace {
    // Runs a loop of 10,000 passes, printing a line every 2,500: a fixture
    // for traces (the probe goes on the marked line).
    public static void main(String[] args) {
        System.out.println("trace-start");
        int total = 0;
        for (int i = 0; i < 10000; i++) {
            int k = i % 3;
            total += k; // TRACE: body
            if (i % 2500 == 0) {
                System.out.println("at " + i);
            }
        }
        System.out.println("trace-done total=" + total);
    }
}
