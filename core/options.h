/* options.h: the option table's lookups and setters by name (options.c). */
#ifndef AS_OPTIONS_H
#define AS_OPTIONS_H

#include "as_internal.h"

enum { AS_OPT_REAL = 0, AS_OPT_WHOLE = 1, AS_OPT_FLAG = 2, AS_OPT_CHOICE = 3 };
/* The row of `name` (exact, lower case) for one of `calls`; NULL if none. */
const as_option *as_option_find(const char *name, unsigned calls);
/* AS_OK and *op, or AS_ERR_ARG "unknown option 'foo'; valid options: ..." */
int as_option_lookup(const char *name, unsigned calls, const as_option **op, as_common *c);
/* What a value of op must be: "a whole number in [1, 64]", "true or false",
   "one of iid|poisson", for messages about values of the wrong host type. */
const char *as_option_expect(const as_option *op, char *buf, size_t len);

/* AS_OK when v is a value of op (a number; a choice's position), else
   AS_ERR_ARG with a message naming the option. */
int as_option_check(const as_option *op, double v, as_common *c);

/* Set option `name` of `call` (one AS_FOR_*) in `o`, the options struct of
   that call: a number (value; AS_OPT_FLAG takes 0 or 1) or, when text is not
   NULL, a string (AS_OPT_CHOICE). Name, kind and range are checked here, with
   messages naming the option; 'threads' and 'verbose' go to c. */
int as_options_set(unsigned call, void *o, const char *name, double value,
                   const char *text, as_common *c);
#define AS_SEED_SPAN 2147483647.0

#endif
