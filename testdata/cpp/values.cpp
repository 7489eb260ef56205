// Fixture of the value checks: one local of each libstdc++ kind a person
// reads, at one stop (the line marked BREAK: values).
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

struct P {
	int x;
	int y;
};

static int use(const std::string &ref, const P *pp) {
	return (int)ref.size() + pp->x; // BREAK: refs
}

int main() {
	std::string s = "hello";
	std::vector<int> v = {1, 2, 3};
	std::map<std::string, int> m = {{"one", 1}, {"two", 2}};
	std::unordered_map<int, std::string> um = {{7, "seven"}};
	std::set<int> st = {4, 5};
	std::shared_ptr<P> sp = std::make_shared<P>(P{3, 4});
	std::unique_ptr<int> up = std::make_unique<int>(11);
	std::optional<int> opt = 5;
	std::optional<int> nopt;
	std::variant<int, std::string> var = std::string("alt");
	int n = 8;
	int *ip = &n;
	P pt{1, 2};
	P *pptr = &pt;
	int &nr = n;
	int total = use(s, pptr); // BREAK: values
	std::cout << s << v.size() << m.size() << um.size() << st.size() << sp->x << *up << *opt
	          << nopt.has_value() << var.index() << *ip << nr << total << std::endl;
	std::cout << "done values" << std::endl;
	return 0;
}
