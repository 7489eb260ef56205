"""A loop that runs scripts named in a trigger file, as sys.remote_exec
(PEP 768) does in Python 3.14: in the main thread, between two steps of
the program. It prints its sys.path and __main__ names before and after,
so a test sees what a script left behind."""
import json
import os
import sys
import time

trigger = sys.argv[1]


def state():
    return json.dumps({"path": sys.path, "main": sorted(k for k in vars(sys.modules["__main__"]) if not k.startswith("__"))})


n = 0
while True:
    n += 1
    if os.path.exists(trigger):
        with open(trigger) as f:
            script = f.read().strip()
        os.remove(trigger)
        print("before " + state(), flush=True)
        with open(script) as f:
            exec(compile(f.read(), script, "exec"), vars(sys.modules["__main__"]))
        print("after " + state(), flush=True)
    print("tick %d" % n, flush=True)
    time.sleep(0.05)
