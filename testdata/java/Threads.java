public class Threads {
    static int shared;

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(() -> {
            int local = 10;
            shared = local; // BP:worker
        }, "worker-1");
        t.start();
        t.join();
        System.out.println("shared=" + shared); // BP:main
    }
}
