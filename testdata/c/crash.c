/* Fixture for exception stops: dereferences NULL after one line of output. */
#include <stdio.h>
static int deref(int *p, int k) {
	return *p + k; /* CRASH */
}
int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("before\n");
	int *none = NULL;
	printf("%d\n", deref(none, 7));
	return 0;
}
