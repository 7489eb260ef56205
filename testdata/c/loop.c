/* Fixture for the c adapter: a loop with locals, a function call, stdout.
 * With an argument "forever" it prints "ready", then ticks until killed
 * (attach tests). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int square(int x) {
	int result = x * x;
	return result;
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	int forever = argc > 1 && strcmp(argv[1], "forever") == 0;
	int total = 0;
	if (forever) {
		printf("ready\n");
	}
	for (int i = 0; forever || i < 5; i++) {
		total += square(i); /* BREAK: loop body */
		printf(forever ? "tick i=%d total=%d\n" : "i=%d total=%d\n", i, total);
		if (forever) {
			usleep(50000);
		}
	}
	printf("done total=%d\n", total);
	return 0;
}
