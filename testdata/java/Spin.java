public class Spin {
    public static void main(String[] args) throws Exception {
        long n = 0;
        while (true) {
            n++;
            if (n % 20 == 0) {
                System.out.println("tick " + n);
            }
            Thread.sleep(25); // BP:spin
        }
    }
}
