// Throws and catches "bad n <n>" on every even n until killed: a target
// for attaching with exception breakpoints.
public class Thrower {
    public static void main(String[] args) throws Exception {
        for (int n = 1; ; n++) {
            try {
                if (n % 2 == 0) {
                    throw new IllegalArgumentException("bad n " + n); // THROW
                }
            } catch (IllegalArgumentException e) {
                System.out.println("tick " + e.getMessage());
            }
            Thread.sleep(50);
        }
    }
}
