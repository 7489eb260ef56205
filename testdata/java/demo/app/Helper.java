package demo.app;

class Helper {
    static String greet(String name) {
        String text = "hello, " + name; // BP:helper
        return text;
    }
}
