public class Never {
    public static void main(String[] args) {
        System.out.println("never-main ran"); // BP:nevermain
    }

    static class Unused {
        static int value() {
            return 1; // BP:unused
        }
    }
}
