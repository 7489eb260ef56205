"""A long-running worker for run-configuration tests: prints a line, then ticks."""
import argparse
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--interval", type=float, default=1.0)
args = parser.parse_args()
print("worker %s started pid=%d cwd=%s" % (os.environ.get("WORKER_NAME", "?"), os.getpid(), os.path.basename(os.getcwd())), flush=True)
n = 0
while True:
    n += 1
    print("tick %d" % n, flush=True)
    time.sleep(args.interval)
