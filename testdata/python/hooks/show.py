"""Prints what a program sees of its world, as JSON: with dbg, it must be
what it is without dbg."""
import json
import os
import sys


def world():
    import sitecustomize

    # The session's mark stays, by design, for what the program starts to
    # inherit (sessions/mark.go); no other variable of dbg's does.
    env = {k: v for k, v in os.environ.items() if k.startswith(("PYTHONPATH", "DBG_", "USER_SITECUSTOMIZE")) and k != "DBG_SESSION_MARK"}
    return json.dumps({"path": sys.path, "env": env, "site": getattr(sitecustomize, "MARK", "")}, sort_keys=True)


if __name__ == "__main__":
    w = world()  # BREAK
    print(w)
