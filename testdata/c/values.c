/* Fixture of the value checks: C strings and pointers at one stop (the
 * line marked BREAK: values). */
#include <stdio.h>
#include <stdlib.h>

struct point {
	int x;
	int y;
};

int main(void) {
	char buf[] = "stack text";
	const char *msg = "hello";
	char *text = buf;
	int n = 5;
	int *ip = &n;
	int *null = NULL;
	struct point pt = {3, 4};
	struct point *pp = &pt;
	printf("%s %s %d %d %p\n", msg, text, *ip, pp->x, (void *)null); /* BREAK: values */
	/* The environment is the program's own, not the debugger's. */
	printf("env PYTHONPATH=%s\n", getenv("PYTHONPATH") ? getenv("PYTHONPATH") : "(unset)");
	printf("done values\n");
	return 0;
}
