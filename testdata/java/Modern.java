import java.util.function.Function;

/** Records, an enum, a sealed interface and a lambda: Java 17 features. */
public class Modern {
    enum Color { RED, GREEN }

    sealed interface Shape permits Box, Dot {}

    record Box(int w, int h) implements Shape {}

    record Dot() implements Shape {}

    record Item(String name, int qty) {}

    record Order(Item item, Color color) {}

    static int area(Shape s) {
        if (s instanceof Box b) {
            return b.w() * b.h(); // BP:area
        }
        return 0;
    }

    public static void main(String[] args) {
        Item item = new Item("a", 2);
        Color color = Color.RED;
        Order order = new Order(item, Color.GREEN);
        Function<Integer, Integer> twice = x -> {
            int doubled = x * 2; // BP:lambda
            return doubled;
        };
        int total = twice.apply(item.qty());

        if (total > 0) {
            total += area(new Box(2, 3));
        } // BP:brace
        System.out.println(order + " " + color + " total=" + total); // BP:print
    }
}
