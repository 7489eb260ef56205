import java.util.ArrayList;
import java.util.List;

// Price has a method that computes a wrong value (total adds one too
// many), for the live-edit flows of the conformance table's reload
// scenario: they evaluate without side effects in main, restart
// countdown's frame, then fix total in a copy while it runs.
public class Price {
    static int total(int qty, int unit) {
        int sum = qty * unit;
        return sum + 1; // BP:wrong
    }

    static int countdown(int n) {
        int acc = 0;
        for (int i = n; i > 0; i--) {
            acc += i; // BP:loop
        }
        return acc;
    }

    public static void main(String[] args) {
        int a = 3;
        int b = 4;
        List<Integer> list = new ArrayList<>();
        list.add(7);
        int c = countdown(3); // BP:main
        int t = total(a, b);
        System.out.println("total=" + t);
        System.out.println("countdown=" + c + " size=" + list.size());
    }
}
