"""Runs a loop of 10,000 passes, printing a line every 2,500: a fixture
for traces (the probe goes on the marked line)."""

print("trace-start", flush=True)
total = 0
for i in range(10000):
    k = i % 3
    total += k  # TRACE: body
    if i % 2500 == 0:
        print(f"at {i}", flush=True)
print(f"trace-done total={total}", flush=True)
