package demo.app;

public class Main {
    public static void main(String[] args) {
        String who = args.length > 0 ? args[0] : "world";
        System.out.println(Helper.greet(who)); // BP:pkgmain
    }
}
