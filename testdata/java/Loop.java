public class Loop {
    static int square(int x) {
        int r = x * x; // BP:square
        return r;
    }

    public static void main(String[] args) {
        int sum = 0;
        String label = "total";
        for (int i = 0; i < 3; i++) {
            sum += square(i); // BP:loop
        }
        System.out.println(label + "=" + sum); // BP:print
        System.err.println("done");
    }
}
