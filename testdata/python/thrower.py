"""Raises and catches "bad n <n>" on every even n until killed: a target
for attaching with exception breakpoints. With --listen PORT it waits for
a debugger on PORT."""
import sys
import time


def main():
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        try:
            if n % 2 == 0:
                raise ValueError("bad n %d" % n)  # THROW
        except ValueError as e:
            print("tick", e, flush=True)
        time.sleep(0.05)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--listen":
        import debugpy
        debugpy.listen(("127.0.0.1", int(sys.argv[2])))
    main()
