public class Trace {
    // Runs a loop of 10,000 passes (or as many as its argument says),
    // printing a line every quarter: a fixture for traces (the probe goes
    // on the marked line).
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10000;
        System.out.println("trace-start");
        int total = 0;
        for (int i = 0; i < n; i++) {
            int k = i % 3;
            total += k; // TRACE: body
            if (i % (n / 4) == 0) {
                System.out.println("at " + i);
            }
        }
        System.out.println("trace-done total=" + total);
    }
}
