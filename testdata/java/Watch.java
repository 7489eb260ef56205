public class Watch {
    // Writes a field of two objects: a fixture for data breakpoints (the
    // watch is on one object's field; the other's writes pass).
    int count;

    void bump(int by) {
        count = count + by; // WATCH: writes
    }

    public static void main(String[] args) {
        Watch a = new Watch();
        Watch b = new Watch();
        b.bump(7); // WATCH: set
        a.bump(5);
        System.out.println("watched a=" + a.count + " b=" + b.count);
    }
}
