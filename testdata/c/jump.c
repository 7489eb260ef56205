/* Fixture for goto_line: the line after the first breakpoint would crash; jumping
   over it lets the program finish. */
#include <stdio.h>
int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	volatile int *none = NULL;
	int x = 1; /* BP:before */
	x = *none; /* CRASH: skipped by goto_line */
	x = x + 1; /* BP:after */
	printf("x=%d\n", x);
	return 0;
}
