// Locals that change and appear between stops of one frame: a fixture for
// the changed field of stop answers.
public class Changed {
    static int work() {
        int count = 1;
        count = count + 1; // CHANGED: start
        String label = "one";
        count = count * 10; // CHANGED: after
        int extra = count + 2;
        count = count + extra;
        count = count - 1;
        count = count + 1;
        System.out.println("count=" + count + " label=" + label + " extra=" + extra);
        return extra;
    }

    public static void main(String[] args) {
        System.out.println("work=" + work());
    }
}
