package dbg.agent;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The protocol server: one daemon thread accepts, one per connection
 * reads frames; runs execute on a pool so heartbeats stay answered while
 * a method runs. Writes to a connection are serialized on its stream.
 */
final class TcpServer {
    private final Agent agent;
    private final ServerSocket server;
    private final ExecutorService runs = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "dbg-agent-run");
        t.setDaemon(true);
        return t;
    });

    TcpServer(Agent agent, String host, int port) throws IOException {
        this.agent = agent;
        this.server = new ServerSocket(port, 50, InetAddress.getByName(host));
    }

    int port() {
        return server.getLocalPort();
    }

    String host() {
        return server.getInetAddress().getHostAddress();
    }

    void start() {
        Thread t = new Thread(this::acceptLoop, "dbg-agent-accept");
        t.setDaemon(true);
        t.start();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                Thread t = new Thread(() -> serve(s), "dbg-agent-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (Socket sock = s) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(sock.getInputStream()));
            OutputStream out = sock.getOutputStream();
            while (true) {
                Frame f;
                try {
                    f = Frame.read(in);
                } catch (EOFException eof) {
                    return;
                }
                switch (f.command) {
                    case Frame.HEARTBEAT_REQUEST:
                        send(out, Frame.json(Frame.HEARTBEAT_RESPONSE, true, Map.of("applicationName", agent.applicationName)));
                        break;
                    case Frame.RUN_REQUEST:
                        String body = f.text();
                        runs.execute(() -> {
                            Map<String, Object> res = agent.invoker.run(body);
                            boolean ok = res.get("throwable") == null;
                            send(out, Frame.json(Frame.RUN_RESPONSE, ok, res));
                        });
                        break;
                    case Frame.CLEAR_RESULT:
                        clear(f.text());
                        break;
                    default:
                        break; // unknown commands are ignored, as the protocol allows growth
                }
            }
        } catch (IOException ignored) {
            // connection gone
        }
    }

    private void clear(String body) {
        try {
            Object o = body.isEmpty() ? null : Json.parse(body);
            if (o instanceof Map) {
                Map<?, ?> m = (Map<?, ?>) o;
                Object off = m.get("offsetPath");
                Object trace = m.get("traceOffsetPath");
                if (off == null && trace == null) {
                    agent.results.clear();
                }
                for (Object x : new Object[] {off, trace}) {
                    if (x != null) {
                        agent.results.remove(String.valueOf(x));
                    }
                }
                Object list = m.get("offsetPaths");
                if (list instanceof List) {
                    for (Object x : (List<?>) list) {
                        agent.results.remove(String.valueOf(x));
                    }
                }
            } else {
                agent.results.clear();
            }
        } catch (RuntimeException e) {
            agent.results.clear();
        }
    }

    private static void send(OutputStream out, Frame f) {
        synchronized (out) {
            try {
                f.write(out);
            } catch (IOException ignored) {
                // the reader notices the broken connection
            }
        }
    }
}
