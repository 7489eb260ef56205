// Locals that change and appear between stops of one frame: a fixture for
// the changed field of stop answers. extra lives in an inner block, so it
// is in scope only from there on.
#include <stdio.h>

static int work(void) {
    int count = 1;
    count = count + 1; // CHANGED: start
    const char *label = "one";
    count = count * 10; // CHANGED: after
    {
        int extra = count + 2;
        count = count + extra;
        count = count - 1;
        count = count + 1;
        printf("count=%d label=%s extra=%d\n", count, label, extra);
        return extra;
    }
}

int main(void) {
    printf("work=%d\n", work());
    return 0;
}
