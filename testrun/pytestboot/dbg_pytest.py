# dbg's start of pytest under debugpy (testrun/pytestboot.go).
#
# debugpy's launcher runs the debuggee as
#   PYTHON [-X frozen_modules=off] DEBUGPY --connect ... -m pytest ARGS
# and debug_test names this file as PYTHON's script, so it runs instead
# of debugpy's own start. It does what that start does, later: pytest and
# its own plugins are imported and configured first, untraced, and the
# debugger connects just before the project's conftest files and tests
# are imported, which are all of the program that is the user's. Tracing
# pytest's start-up costs several times the test itself.
#
# The modules debugpy imports that a file of the project shadows (a
# project's code.py, which pydevd's console imports from the standard
# library) are forgotten before the tests import them, as they would
# not be imported without the debugger.
#
# With --zygote SOCKET, this file is a fork server: debugpy and pytest
# imported once, it forks one child per run that a start of this file
# hands it (argv, environment, working directory, stdio), so that a run
# starts with all of that already imported. A start whose interpreter
# settings differ from the server's runs by itself.
import os
import sys

# The variable naming the fork server's socket, for a start.
ZYGOTE_ENV = "DBG_PYTEST_ZYGOTE"
# The variable naming the file a run reports a failure in that the
# debugger cannot stop at (a RecursionError ends its tracing).
REPORT_ENV = "DBG_PYTEST_REPORT"


def _args(argv):
    """Drops the launcher's -X options before debugpy's folder."""
    while len(argv) >= 2 and argv[0] == "-X":
        argv = argv[2:]
    return argv


def _load(debugpy_dir):
    """Imports debugpy from its folder, as debugpy/__main__.py does."""
    if "debugpy" not in sys.modules:
        sys.path.insert(0, os.path.dirname(os.path.abspath(debugpy_dir)))
        try:
            import debugpy  # noqa: F401
        finally:
            del sys.path[0]
    from debugpy.server import api, cli

    return api, cli


def _preload():
    """Imports pytest and its own plugins, untraced."""
    try:
        import importlib

        import pytest  # noqa: F401
        from _pytest.config import default_plugins

        for name in default_plugins:
            try:
                importlib.import_module("_pytest." + name)
            except Exception:
                pass
    except Exception:
        pass


def _roots(args):
    """The folders the project's modules are imported from: the working
    folder, and those pytest puts first on sys.path for the test files
    named (the file's folder, above its packages)."""
    out = [os.getcwd()]
    for a in args:
        f = a.split("::", 1)[0]
        if a.startswith("-") or not f.endswith(".py"):
            continue
        d = os.path.dirname(os.path.abspath(f))
        out.append(d)
        while os.path.isfile(os.path.join(d, "__init__.py")):
            d = os.path.dirname(d)
        out.append(d)
    return out


def _imports(debugpy_dir):
    """Imports pytest, then debugpy: returns debugpy's api and cli, and
    the names of the modules debugpy added."""
    _preload()
    pre = set(sys.modules)
    api, cli = _load(debugpy_dir)
    return api, cli, set(sys.modules) - pre


def _unshadow(added, roots):
    """Forgets the modules of added that a project file of the same name
    shadows."""
    for name in added:
        if "." in name or name not in sys.modules:
            continue
        for d in roots:
            if os.path.isfile(os.path.join(d, name + ".py")) or os.path.isfile(os.path.join(d, name, "__init__.py")):
                for sub in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                    del sys.modules[sub]
                break


def run(argv, imported=None):
    """Runs pytest as debugpy's start would, connecting late, and returns
    its exit code. A command line this start does not know (not pytest,
    another debugpy) runs through debugpy's own start."""
    argv = _args(argv)
    api, cli, added = imported or _imports(argv[0])
    sys.argv = list(argv)
    try:
        cli.parse_args()
        if cli.options.target_kind != "module" or cli.options.target != "pytest":
            raise ValueError("not a pytest run")
        import pytest
    except Exception:
        sys.argv = list(argv)
        cli.main()
        return 0
    args = sys.argv[1:]
    _unshadow(added, _roots(args))
    if not (sys.flags.isolated or getattr(sys.flags, "safe_path", False)):
        sys.path.insert(0, os.getcwd())  # as python -m does
    main = os.path.join(os.path.dirname(pytest.__file__), "__main__.py")

    class Connect:
        """Connects the debugger before the conftest files load."""

        @pytest.hookimpl(tryfirst=True)
        def pytest_load_initial_conftests(self, early_config, parser, args):
            api.ensure_logging()
            cli.start_debugging(main)

    class Report:
        """Reports a RecursionError of a test: its cycle and depth."""

        def __init__(self, path):
            self.path = path

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_makereport(self, item, call):
            if self.path and call.excinfo is not None and isinstance(call.excinfo.value, RecursionError):
                _report_recursion(self.path, call.excinfo.value, call.excinfo.tb)
                self.path = ""

    sys.argv = [main] + args
    code = pytest.main(args, plugins=[Connect(), Report(os.environ.pop(REPORT_ENV, ""))])
    sys.stdout.flush()
    return int(code)


def _cycle(entries):
    """The repeating part of a stack (outermost first): its first index
    and length, the longest repeating run at the stack's end (the last
    entry may break it: the frame whose call overflowed)."""
    n = len(entries)
    best = (0, None, 0)
    for tail in (n, n - 1):
        for p in range(1, min(64, tail // 2) + 1):
            s = tail - p
            while s > 0 and entries[s - 1] == entries[s - 1 + p]:
                s -= 1
            if tail - s >= 2 * p and tail - s > best[0]:
                best = (tail - s, s, p)
    return best[1], best[2]


def _report_recursion(path, exc, tb):
    """Writes the recursion's cycle and depth to path (a new file)."""
    import json

    entries, entered = [], 0
    while tb is not None:
        code = tb.tb_frame.f_code
        entries.append((code.co_filename, tb.tb_lineno, code.co_name))
        # A frame still on its first line was being entered when the
        # stack overflowed (the debugger's trace function overflows
        # there): not part of the cycle.
        entered = entered + 1 if tb.tb_lineno == code.co_firstlineno else 0
        tb = tb.tb_next
    start, p = _cycle(entries[: len(entries) - entered] if entered < len(entries) else entries)
    if start is None:
        return
    report = {
        "message": "%s: %s" % (type(exc).__name__, exc),
        "depth": len(entries) - start,
        "limit": sys.getrecursionlimit(),
        "cycle": [{"file": f, "line": line, "function": fn} for f, line, fn in entries[start : start + p]],
    }
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(report, f)
    except OSError:
        pass


# Settings that an interpreter reads at its start: a run forked from the
# server has the server's.
_STARTUP = ("PYTHON", "LC_", "LANG")


def _fingerprint():
    try:
        with open("/proc/self/environ", "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        return None
    keep = sorted(e for e in env if e.decode(errors="replace").startswith(_STARTUP))
    return repr((sys.executable, sys.flags, sys._xoptions, keep))


def start(argv):
    """A start under debugpy's launcher: through the fork server when it
    serves this interpreter's settings, else in this process."""
    path = os.environ.pop(ZYGOTE_ENV, "")
    if path and hasattr(__import__("socket"), "send_fds"):
        code = _through(path, argv)
        if code is not None and code < 0:
            os.kill(os.getpid(), -code)  # ended by a signal: so does this start
        if code is not None:
            os._exit(code)
    sys.exit(run(argv))


def _through(path, argv):
    import json
    import signal
    import socket

    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        req = {"argv": argv, "env": dict(os.environ), "cwd": os.getcwd(), "pgid": os.getpgrp(), "fp": _fingerprint()}
        socket.send_fds(s, [json.dumps(req).encode() + b"\n"], [0, 1, 2])
        f = s.makefile("rb")
        child = int(f.readline() or b"0")
    except (OSError, ValueError):
        return None
    if child <= 0:
        return None  # the server refused: other settings

    def forward(sig, _frame):
        try:
            os.kill(child, sig)
        except OSError:
            pass

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    line = f.readline()
    return int(line) if line.strip() else 1


def zygote(path, debugpy_dir):
    """The fork server: imports once, forks a run per start."""
    import ctypes
    import json
    import select
    import signal
    import socket
    import struct

    imported = _imports(debugpy_dir)
    fp = _fingerprint()
    libc = ctypes.CDLL(None, use_errno=True)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(16)
    parent = os.getppid()
    runs = {}  # conn -> child pid
    while os.getppid() == parent:
        ready, _, _ = select.select([srv] + list(runs), [], [], 0.2)
        for c in ready:
            if c is srv:
                conn, _ = srv.accept()
                uid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1]
                try:
                    msg, fds, _, _ = socket.recv_fds(conn, 1 << 22, 3)
                    while not msg.endswith(b"\n"):
                        more = conn.recv(1 << 22)
                        if not more:
                            break
                        msg += more
                    req = json.loads(msg)
                except (OSError, ValueError):
                    conn.close()
                    continue
                if uid != os.getuid() or req.get("fp") != fp or len(fds) != 3:
                    conn.sendall(b"0\n")
                    conn.close()
                    for fd in fds:
                        os.close(fd)
                    continue
                pid = os.fork()
                if pid == 0:
                    _child(libc, srv, runs, conn, fds, req, imported)
                for fd in fds:
                    os.close(fd)
                runs[conn] = pid
            else:
                # The start went away (killed): so does its run.
                try:
                    if not c.recv(1):
                        os.kill(runs[c], signal.SIGKILL)
                except OSError:
                    pass
        while runs:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            for conn, p in list(runs.items()):
                if p == pid:
                    try:
                        conn.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))
                    except OSError:
                        pass
                    conn.close()
                    del runs[conn]
    for p in runs.values():
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def _child(libc, srv, runs, conn, fds, req, imported):
    """A forked run: the start's process group, stdio, folder, variables
    and arguments; it dies with the server."""
    import signal

    code = 1
    try:
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        try:
            os.setpgid(0, req["pgid"])
        except OSError:
            pass
        srv.close()
        for other in runs:
            other.close()
        for i, fd in enumerate(fds):
            os.dup2(fd, i)
            os.close(fd)
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        conn.sendall(b"%d\n" % os.getpid())
        conn.close()
        code = run(req["argv"], imported)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


if __name__ == "__main__":
    del sys.path[0]  # this file's folder
    if len(sys.argv) == 4 and sys.argv[1] == "--zygote":
        zygote(sys.argv[2], sys.argv[3])
    else:
        start(sys.argv[1:])
