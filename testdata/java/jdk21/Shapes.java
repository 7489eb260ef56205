/** A sealed interface and a pattern switch (JDK 21 and later). */
public class Shapes {
    sealed interface Shape permits Circle, Square {}

    record Circle(double r) implements Shape {}

    record Square(double side) implements Shape {}

    static String describe(Shape shape) {
        return switch (shape) {
            case Circle c -> {
                double area = Math.PI * c.r() * c.r();
                yield "circle " + area;
            }
            case Square q -> {
                double area = q.side() * q.side();
                yield "square " + area; // BP:square
            }
        };
    }

    public static void main(String[] args) {
        System.out.println(describe(new Circle(1)));
        System.out.println(describe(new Square(3)));
    }
}
