/* Fixture: does not compile (the build-error test). */
int main(void) {
	int x = undeclared_name + 1;
	return x;
}
