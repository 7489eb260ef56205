"""Under the debugger, this conftest leaves a process behind that is not
in the run's process tree when dbg looks at it: a second after the run
started (dbg has looked at the run's processes then), a shell starts it
in the background and ends, so that it is nobody's child but init's.
dbg must still end it with the session."""
import subprocess
import sys
import time

if "pydevd" in sys.modules:
    time.sleep(1)
    # Not Python: debugpy would debug a Python child as a session of its
    # own.
    subprocess.run(["sh", "-c", "sleep 120 </dev/null >/dev/null 2>&1 &"], check=True)
