import java.util.Map;

public class PrepareTestContext {
    public static void onBefore(Map<String, Object> context, Object[] args) {
        System.out.println("before " + args.length);
    }

    public static void onAfter(Map<String, Object> context, Object[] args, Object result) {
        System.out.println("after " + result);
    }
}
