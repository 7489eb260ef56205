"""Writes each line in two parts with a logpoint's line between them: a
fixture for output that keeps logpoint text out of the program's lines."""
import sys
import time

for i in range(3):
    sys.stdout.write("trace-done")
    sys.stdout.flush()
    n = i * 2  # LOGPOINT
    print("p", i, flush=True)
time.sleep(0.5)  # lets debugpy send the logpoints' output before the end
