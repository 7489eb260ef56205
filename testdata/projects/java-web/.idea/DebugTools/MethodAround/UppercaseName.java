public class UppercaseName {
    public static void onBefore(java.util.Map<String, Object> context, Object[] args) {
        if (args.length > 0 && args[0] instanceof String s) {
            args[0] = s.toUpperCase();
        }
    }
}
