// Prints its first argument, DBG_E2E and its working directory (the
// args/env/cwd conformance scenario).
#include <cstdlib>
#include <filesystem>
#include <iostream>

int main(int argc, char **argv) {
	const char *env = std::getenv("DBG_E2E");
	std::cout << (argc > 1 ? argv[1] : "-") << " " << (env ? env : "-") << " "
		  << std::filesystem::current_path().string() << std::endl;
	return 0;
}
