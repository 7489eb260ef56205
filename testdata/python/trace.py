"""Runs a loop of 10,000 passes (or as many as its argument says),
printing a line every quarter: a fixture for traces (the probe goes on
the marked line)."""

import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
print("trace-start", flush=True)
total = 0
for i in range(n):
    k = i % 3
    total += k  # TRACE: body
    if i % (n // 4) == 0:
        print(f"at {i}", flush=True)
print(f"trace-done total={total}", flush=True)
