"""Counts five passes of a loop, printing each: a fixture for hit
conditions (the fourth pass must be reachable)."""

total = 0
for i in range(5):
    total += i  # BREAK: count
    print(f"pass i={i} total={total}", flush=True)
print(f"counted total={total}", flush=True)
