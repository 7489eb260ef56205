# Runs child.py in a subprocess of the same interpreter.
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
print("parent starts", flush=True)
done = subprocess.run([sys.executable, os.path.join(here, "child.py"), "7"])
print(f"parent saw child exit {done.returncode}", flush=True)
