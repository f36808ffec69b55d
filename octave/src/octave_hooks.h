/* octave_hooks.h: the gateway's hooks into Octave's own C++ API, apart from mex.h (the two clash). */
#ifndef ATTSPARSE_OCTAVE_HOOKS_H
#define ATTSPARSE_OCTAVE_HOOKS_H

/* The core's interrupt_fn: nonzero once the user pressed Ctrl-C. */
int octave_hook_interrupt (void *ctx);

/* The core's unif_fn: rand (), a uniform number from Octave's generator, for
   a seed the caller did not give (rand ("seed", s) reproduces a run). */
double octave_hook_unif (void *ctx);

/* The core's print_fn: one line on Octave's stderr, flushed. */
void octave_hook_print (void *ctx, const char *line);

/* mexCallMATLAB (nlhs, plhs, nrhs, prhs, fn); a Ctrl-C while Octave runs the
   called function (an interrupt, which unwinds past any try) is stopped here:
   *interrupted is set and the call returns nonzero, so that the gateway can
   free what it holds and raise attsparse:interrupted;
   plhs and prhs are mxArray pointers (void in mex.h, a class in Octave's
   own headers, hence void here). */
int octave_hook_call (int nlhs, void **plhs, int nrhs, void **prhs, const char *fn,
                      int *interrupted);

/* Raise an Octave error with identifier id and message msg (no format). */
[[noreturn]] void octave_hook_raise (const char *id, const char *msg);

#endif
