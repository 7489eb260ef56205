"""Prints its first argument, DBG_E2E and its working directory (the
args/env/cwd conformance scenario)."""
import os
import sys

print(sys.argv[1], os.environ.get("DBG_E2E"), os.getcwd(), flush=True)
