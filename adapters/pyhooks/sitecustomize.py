# dbg's hook for debugpy's sockets. dbg puts this directory first on
# PYTHONPATH of debugpy's adapter and of the debuggee. It sets TCP_NODELAY
# on every socket between debugpy's adapter and pydevd, which otherwise
# wait ~40 ms per message for a delayed ACK (Nagle's algorithm), and it
# spares each of debugpy's processes the description of the environment
# for a log that is not kept.
#
# In the debuggee it then leaves no trace: it takes its directory off
# sys.path, restores PYTHONPATH, removes its own variables, and runs the
# program's own sitecustomize (or, if there is none, lets site.py find
# none), so that sys.path, sys.modules and os.environ are what they would
# be without dbg. usercustomize is not shadowed: site.py imports it after.
import os
import sys


def _dbg_nodelay(sock):
    try:
        import socket

        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except Exception:
        pass
    return sock


def _dbg_patch_pydevd_comm(mod):
    # pydevd's connection to the adapter (launch, debugpy.connect/listen).
    start_client, start_server = mod.start_client, mod.start_server

    def start_client_nodelay(*args, **kwargs):
        return _dbg_nodelay(start_client(*args, **kwargs))

    def start_server_nodelay(*args, **kwargs):
        return _dbg_nodelay(start_server(*args, **kwargs))

    mod.start_client, mod.start_server = start_client_nodelay, start_server_nodelay


def _dbg_patch_sockets(mod):
    # debugpy's adapter and launcher: every socket they make (servers and
    # clients; accepted sockets inherit the option from their listener).
    new_sock = mod._new_sock

    def new_sock_nodelay(*args, **kwargs):
        return _dbg_nodelay(new_sock(*args, **kwargs))

    mod._new_sock = new_sock_nodelay


def _dbg_patch_log(mod):
    # debugpy describes its environment for its log at each start of the
    # adapter, the launcher and the debuggee, reading the metadata of every
    # installed package, even when no log takes it (about half a second
    # of CPU each in a large environment). It is skipped when no log
    # records "info" messages.
    describe = mod.describe_environment

    def describe_environment(*args, **kwargs):
        if "info" in getattr(mod, "_levels", ("info",)):
            describe(*args, **kwargs)

    mod.describe_environment = describe_environment


# What attach by pid injects into the target, after debugpy's own code:
# pydevd_nodelay.py, beside this file. debugpy passes the code in a C
# string on the debugger's command line, so it goes as bytes: no quotes,
# one line.
#
# Where gdb cannot make calls into a process and lldb can, dbg sets
# DBG_PYHOOK_INJECT to the lldb command line it checked on a throwaway
# process, as a JSON list with {pid} and {code_bytes} (the code's bytes,
# comma-separated) to fill in, and the injection runs it instead of
# debugpy's gdb command.


def _dbg_run_lldb(argv):
    def run(pid, python_code, *args, **kwargs):
        import subprocess

        code = ",".join(str(b) for b in python_code.encode())
        cmd = [a.replace("{pid}", str(pid)).replace("{code_bytes}", code) for a in argv]
        env = dict(os.environ)
        for k in ("PYTHONPATH", "PYTHONIOENCODING", "PYTHONHOME", "DBG_PYHOOK_INJECT"):
            env.pop(k, None)
        print("Running: %s" % (" ".join(cmd),))
        subprocess.check_call(cmd, env=env, stdin=subprocess.DEVNULL)

    return run


def _dbg_patch_injector(mod):
    run = mod.run_python_code
    inject = os.environ.get("DBG_PYHOOK_INJECT")
    if inject:
        import json

        run = _dbg_run_lldb(json.loads(inject))
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pydevd_nodelay.py"), "rb") as f:
        code = "exec(bytes(%r).decode(),{})" % (list(f.read()),)
    code = code.replace(" ", "")

    def run_python_code(pid, python_code, *args, **kwargs):
        return run(pid, python_code.rstrip(";") + ";" + code + ";", *args, **kwargs)

    mod.run_python_code = run_python_code


class _DbgFinder(object):
    """Patches the named modules right after they are first executed."""

    def __init__(self, patches, remove_when_done):
        self.patches = dict(patches)
        self.remove_when_done = remove_when_done

    def find_spec(self, name, path=None, target=None):
        patch = self.patches.get(name)
        if patch is None:
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        del self.patches[name]
        if self.remove_when_done and not self.patches:
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass
        spec.loader = _DbgLoader(spec.loader, patch)
        return spec


class _DbgLoader(object):
    def __init__(self, loader, patch):
        self.loader, self.patch = loader, patch

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = self.loader
        if getattr(module, "__spec__", None) is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        try:
            self.patch(module)
        except Exception:
            pass


def _dbg_main():
    here = os.path.dirname(os.path.abspath(__file__))
    debuggee = os.environ.get("DBG_PYHOOK_DEBUGGEE") == "1"
    if debuggee:
        # Leave the program's world as it would be without dbg.
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
        if os.environ.get("DBG_PYHOOK_PYTHONPATH_SET") == "1":
            os.environ["PYTHONPATH"] = os.environ.get("DBG_PYHOOK_PYTHONPATH", "")
        else:
            os.environ.pop("PYTHONPATH", None)
        for k in ("DBG_PYHOOK_DEBUGGEE", "DBG_PYHOOK_PYTHONPATH", "DBG_PYHOOK_PYTHONPATH_SET"):
            os.environ.pop(k, None)
        sys.meta_path.insert(0, _DbgFinder({
            "debugpy.common.log": _dbg_patch_log,
            "_pydevd_bundle.pydevd_comm": _dbg_patch_pydevd_comm,
        }, True))
    else:
        # debugpy's adapter, launcher and attach injector: dbg's own
        # processes, whose children (the launcher, the injector) need the
        # hook too.
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
        sys.meta_path.insert(0, _DbgFinder({
            "debugpy.common.log": _dbg_patch_log,
            "debugpy.common.sockets": _dbg_patch_sockets,
            "_pydevd_bundle.pydevd_comm": _dbg_patch_pydevd_comm,
            "add_code_to_python_process": _dbg_patch_injector,
        }, False))

    # Chain to the program's own sitecustomize, now that this one is off
    # the path. Importing it replaces this module in sys.modules; when
    # there is none, this import fails as site.py expects of a missing one.
    del sys.modules["sitecustomize"]
    try:
        import sitecustomize  # noqa: F401
    except ImportError as exc:
        if exc.name == "sitecustomize":
            raise ImportError("No module named 'sitecustomize'", name="sitecustomize")
        raise


_dbg_main()
