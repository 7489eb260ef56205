package dbg.agent;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** One frame of the agent protocol: a 12-byte header and a JSON body. */
final class Frame {
    static final int MAGIC = 20240508;
    static final int MAX_BODY = 64 << 20;
    static final byte HEARTBEAT_REQUEST = 1;
    static final byte HEARTBEAT_RESPONSE = 2;
    static final byte RUN_REQUEST = 3;
    static final byte RUN_RESPONSE = 4;
    static final byte CLEAR_RESULT = 7;

    final byte version;
    final byte serializer;
    final byte command;
    final byte flag;
    final byte[] body;

    Frame(byte command, byte flag, byte[] body) {
        this((byte) 1, (byte) 1, command, flag, body);
    }

    Frame(byte version, byte serializer, byte command, byte flag, byte[] body) {
        this.version = version;
        this.serializer = serializer;
        this.command = command;
        this.flag = flag;
        this.body = body;
    }

    static Frame json(byte command, boolean ok, Object body) {
        return new Frame(command, (byte) (ok ? 1 : 0), Json.write(body).getBytes(StandardCharsets.UTF_8));
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    static Frame read(DataInputStream in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException("bad magic " + magic);
        }
        byte version = in.readByte();
        byte serializer = in.readByte();
        byte command = in.readByte();
        byte flag = in.readByte();
        int len = in.readInt();
        if (len < 0 || len > MAX_BODY) {
            throw new IOException("bad body length " + len);
        }
        if (serializer != 1) {
            throw new IOException("unsupported serializer " + serializer);
        }
        byte[] body = new byte[len];
        in.readFully(body);
        return new Frame(version, serializer, command, flag, body);
    }

    void write(OutputStream out) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(12 + body.length);
        b.putInt(MAGIC).put(version).put(serializer).put(command).put(flag).putInt(body.length).put(body);
        out.write(b.array());
        out.flush();
    }
}
