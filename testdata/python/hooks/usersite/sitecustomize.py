# The program's own sitecustomize: dbg's hook must still run it.
import os

MARK = "user sitecustomize ran"
os.environ["USER_SITECUSTOMIZE"] = "1"
