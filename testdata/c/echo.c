/* Prints its first argument, DBG_E2E and its working directory (the
 * args/env/cwd conformance scenario). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
	char cwd[4096];
	printf("%s %s %s\n", argc > 1 ? argv[1] : "-", getenv("DBG_E2E"), getcwd(cwd, sizeof cwd));
	return 0;
}
