#include <cstdio>
int main() {
    std::puts("cuzk");
    return 0;
}
