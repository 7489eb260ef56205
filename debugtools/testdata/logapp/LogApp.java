import org.apache.logging.log4j.LogManager;
import org.slf4j.LoggerFactory;

/** Logs through SLF4J/Logback and Log4j2, for the agent's log capture tests. */
public class LogApp {
    private static final org.slf4j.Logger SLF = LoggerFactory.getLogger("app.logback");
    private static final org.apache.logging.log4j.Logger L4J = LogManager.getLogger("app.log4j2");

    public static void emit(String word) {
        SLF.info("logback says {}", word);
        L4J.error("log4j2 says {}", word, new IllegalStateException("l4j-" + word));
    }

    public static void main(String[] args) throws Exception {
        emit("start");
        System.out.println("READY");
        System.out.flush();
        while (true) {
            Thread.sleep(60_000);
        }
    }
}
