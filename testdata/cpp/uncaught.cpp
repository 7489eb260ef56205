// Fixture for exception stops: an uncaught std::runtime_error after one
// line of output.
#include <iostream>
#include <stdexcept>
static int check(int v) {
	if (v > 2) {
		throw std::runtime_error("value too large"); // THROW
	}
	return v;
}
int main() {
	std::cout << "before" << std::endl;
	return check(5);
}
