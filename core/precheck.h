/* precheck.h: the input traps' thresholds (precheck.c). */
#ifndef AS_PRECHECK_H
#define AS_PRECHECK_H

#include "as_internal.h"

#define AS_PRECHECK_ROWS 1000

#endif
