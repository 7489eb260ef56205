import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/** A virtual-thread executor (JDK 21 and later). */
public class Vt {
    record Job(String label, int n) {}

    static final int MANY = 80;

    static int work(Job job) {
        int v = job.n() * 2; // BP:work
        return v;
    }

    static int tick(int i, CountDownLatch ticked, CountDownLatch release) throws InterruptedException {
        ticked.countDown(); // BP:tick
        release.await();
        return i;
    }

    public static void main(String[] args) throws Exception {
        ThreadFactory named = Thread.ofVirtual().name("vt-", 0).factory();
        try (ExecutorService ex = Executors.newThreadPerTaskExecutor(named)) {
            List<Future<Integer>> results = new ArrayList<>();
            results.add(ex.submit(() -> work(new Job("first", 21))));
            int sum = 0;
            for (Future<Integer> r : results) {
                sum += r.get();
            }
            System.out.println("vt sum=" + sum);
            CountDownLatch ticked = new CountDownLatch(MANY);
            CountDownLatch release = new CountDownLatch(1);
            for (int i = 0; i < MANY; i++) {
                final int n = i;
                ex.submit(() -> tick(n, ticked, release));
            }
            ticked.await();
            release.countDown(); // BP:many
        }
        System.out.println("vt done");
    }
}
