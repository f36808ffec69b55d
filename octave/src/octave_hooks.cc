// octave_hooks.cc: interrupt check, progress output and errors through Octave's C++ API (quit.h, pager.h, error.h).

#include <cstdio>
#include <iostream>

#include <octave/oct.h>
#include <octave/mexproto.h>
#include <octave/pager.h>
#include <octave/quit.h>

#include "octave_hooks.h"

// Ctrl-C makes Octave's signal watcher increment octave_interrupt_state; the
// interpreter acts on it only at its next octave_quit (), which cannot happen
// while the core runs, so the core polls the flag on its main thread between
// blocks. The flag is left as it is: once the gateway has freed everything
// and raised, the interpreter handles the interrupt as usual.
int octave_hook_interrupt (void *)
{
  return octave_interrupt_state > 0;
}

// An interrupt is an octave::interrupt_exception, not an error: mexCallMATLAB
// lets it through even with the trap flag set, and no try in the user's code
// sees it. Stopped here, the gateway frees what it holds and raises
// attsparse:interrupted, as when the core sees the flag itself.
int octave_hook_call (int nlhs, void **plhs, int nrhs, void **prhs, const char *fn, int *interrupted)
{
  *interrupted = 0;
  try
    {
      return mexCallMATLAB (nlhs, reinterpret_cast<mxArray **> (plhs), nrhs,
                            reinterpret_cast<mxArray **> (prhs), fn);
    }
  catch (const octave::interrupt_exception&)
    {
      *interrupted = 1;
      return 1;
    }
}

double octave_hook_unif (void *)
{
  mxArray *u = nullptr;
  double v = 0;
  if (mexCallMATLAB (1, &u, 0, nullptr, "rand") == 0 && u)
    v = mxGetScalar (u);
  if (u)
    mxDestroyArray (u);
  return v;
}

// progress lines (verbose) go to stderr, apart from a function's printed output
void octave_hook_print (void *, const char *line)
{
  std::cerr << line << '\n';
  std::cerr.flush ();
}

// mexErrMsgIdAndTxt would do the same, with the MEX file's name
// ("__attsparse__: ") in front of a message that already names the function.
void octave_hook_raise (const char *id, const char *msg)
{
  error_with_id (id, "%s", msg);
}
