/* Fixture for data breakpoints: a global written in a function. The
 * write of counter is not the last instruction of its line (a hardware
 * watchpoint stops after the writing instruction, still on the line). */
#include <stdio.h>

int counter = 1;
static int bumps;

static void bump(int by) {
	counter += by, bumps++; /* WATCH: writes */
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("watch-start\n"); /* WATCH: set */
	bump(4);
	printf("watched counter=%d bumps=%d\n", counter, bumps);
	return 0;
}
