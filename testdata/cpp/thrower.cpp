// Throws and catches "bad n <n>" on every even n until killed: a target
// for attaching with exception breakpoints.
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

int main() {
	std::cout << "ready" << std::endl;
	for (int n = 1;; n++) {
		try {
			if (n % 2 == 0) {
				throw std::runtime_error("bad n " + std::to_string(n)); // THROW
			}
		} catch (const std::exception &e) {
			std::cout << "tick " << e.what() << std::endl;
		}
		std::this_thread::sleep_for(std::chrono::milliseconds(50));
	}
}
