# Sets TCP_NODELAY on pydevd's connection to debugpy's adapter, once
# pydevd is connected. dbg runs it inside a target it attached to (after
# debugpy's injected code, or after debugpy.listen), in a namespace of its
# own, so that it leaves no names behind.
def _dbg_nodelay():
    import socket, sys
    p = sys.modules.get("pydevd")
    d = p.get_global_debugger() if p is not None else None
    for t in (getattr(d, "writer", None), getattr(d, "reader", None)):
        s = getattr(t, "sock", None)
        if s is not None:
            try:
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except Exception:
                pass


_dbg_nodelay()
