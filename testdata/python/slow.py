"""Has a line that takes a long time, for stepping while it runs."""
import time


def main():
    started = True
    time.sleep(30)  # SLOW
    print("woke up", started)


main()
