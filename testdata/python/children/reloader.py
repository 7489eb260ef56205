# A development server's reloader, as Django's runserver and Flask's
# (Werkzeug's) do it: the process first started re-executes its own
# command line in a child with RUN_MAIN set, and only that child runs
# the application; the first one waits to start it again.
import os
import subprocess
import sys


def serve(port):
    handled = port + 1
    label = "app"
    print(f"{label} serving handled={handled}", flush=True)  # BP:app
    return 0


def main():
    if os.environ.get("RUN_MAIN") == "true":
        return serve(8000)
    env = dict(os.environ, RUN_MAIN="true")
    code = subprocess.call([sys.executable] + sys.argv, env=env)
    print(f"reloader saw app exit {code}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
