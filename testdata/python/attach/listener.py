"""ticker.py, holding a TCP connection of its own, which no debugger must
change: a program to start under `python -m debugpy --listen`."""
import socket

from ticker import main

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
own = socket.create_connection(srv.getsockname())
peer, _ = srv.accept()


def own_nodelay():
    return own.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


if __name__ == "__main__":
    main()
