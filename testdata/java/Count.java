public class Count {
    // Counts five passes of a loop, printing each: a fixture for hit
    // conditions (the fourth pass must be reachable).
    public static void main(String[] args) {
        int total = 0;
        for (int i = 0; i < 5; i++) {
            total += i; // BREAK: count
            System.out.println("pass i=" + i + " total=" + total);
        }
        System.out.println("counted total=" + total);
    }
}
