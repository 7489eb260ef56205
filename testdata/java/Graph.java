import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Graph {
    static int counter = 7;
    String name;
    List<String> items = new ArrayList<>();
    Map<String, Integer> scores = new HashMap<>();
    int[] numbers = {1, 2, 3};
    Integer boxed = 42;

    Graph(String name) {
        this.name = name;
    }

    int total() {
        int t = 0;
        for (int n : numbers) {
            t += n;
        }
        return t; // BP:total
    }

    public static void main(String[] args) {
        Graph g = new Graph("root");
        g.items.add("a");
        g.items.add("b");
        g.scores.put("k", 5);
        List<String> list = g.items;
        Map<String, Integer> map = g.scores;
        int a = 3;
        int b = 4;
        int[] arr = new int[250];
        for (int i = 0; i < arr.length; i++) {
            arr[i] = i * i;
        }
        String message = "hello";
        int r = g.total(); // BP:graph
        System.out.println("message=" + message + " a=" + a + " r=" + r);
    }
}
