// A std::runtime_error thrown and caught: breakOnExceptions all stops at
// the throw.
#include <iostream>
#include <stdexcept>

static int check(int v) {
	if (v > 2) {
		throw std::runtime_error("value too large"); // THROW
	}
	return v;
}

int main() {
	try {
		check(5);
	} catch (const std::exception &e) {
		std::cout << "caught " << e.what() << std::endl;
	}
	return 0;
}
