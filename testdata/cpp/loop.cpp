// Fixture for the cpp adapter: a loop with locals, a function call, stdout.
// With an argument "forever" it prints "ready", then ticks until killed
// (attach tests).
#include <chrono>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

static int square(int x) {
	int result = x * x;
	return result;
}

int main(int argc, char **argv) {
	bool forever = argc > 1 && std::string(argv[1]) == "forever";
	std::string label = "sum";
	std::vector<int> seen;
	int total = 0;
	if (forever) {
		std::cout << "ready" << std::endl;
	}
	for (int i = 0; forever || i < 5; i++) {
		total += square(i); // BREAK: loop body
		seen.push_back(i);
		std::cout << (forever ? "tick " : "") << label << " i=" << i << " total=" << total << std::endl;
		if (forever) {
			std::this_thread::sleep_for(std::chrono::milliseconds(50));
			seen.clear();
		}
	}
	std::cout << "done total=" << total << std::endl;
	return 0;
}
