/* check.h: a minimal test harness for the core's C tests; prints "N passed, N failed". */
#ifndef AS_CHECK_H
#define AS_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static int check_passed = 0, check_failed = 0;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (cond) check_passed++;                                             \
        else {                                                                \
            check_failed++;                                                   \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

static int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed ? 1 : 0;
}
#endif
