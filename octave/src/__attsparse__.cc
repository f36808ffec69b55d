// __attsparse__.cc: the Octave MEX gateway: checks host types and options, makes no-copy views of X, calls the C core, wraps its results.
//
// One MEX file, several entry points chosen by a command string:
//   [Y, err, info] = __attsparse__ ("rand", X, name, value, ...)
//   [Y, err, info] = __attsparse__ ("det", X, name, value, ...)
//   [scores, rank] = __attsparse__ ("leverage", X, name, value, ...)
//   metrics        = __attsparse__ ("error", X, Y, name, value, ...)
//   Att            = __attsparse__ ("attention", X, name, value, ...)
//   X              = __attsparse__ ("example", n, d, r, seed)
//   [Y, err, info] = __attsparse__ ("rand_blocks", reader, ncol, nrow, block, name, value, ...)
// The inst/*.m wrappers convert single/logical/integer input to double and
// pick the default seed from Octave's rand; everything else is checked here
// (host types, option names and kinds) or by the core (option ranges, X).
//
// Plain MEX API; what needs Octave's own C++ API (interrupt flag, pager,
// errors) is in octave_hooks.cc, since mex.h and Octave's headers clash.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mex.h"

#include "attsparse.h"
#include "octave_hooks.h"

namespace {

// ------------------------------------------------------------------ errors

[[noreturn]] void raise (const char *id, const char *msg)
{
  char fullid[64];
  std::snprintf (fullid, sizeof fullid, "attsparse:%s", id);
  octave_hook_raise (fullid, msg);
}

// Everything one call owns: the core's context, its result, and any buffers.
// release () frees them all; it runs before every error and at the end.
class Work
{
public:
  explicit Work (const char *fname) : m_fname (fname)
  {
    as_common_init (&c);
    c.malloc_fn = std::malloc;
    c.free_fn = std::free;
    c.interrupt_fn = octave_hook_interrupt;
    c.print_fn = octave_hook_print;
    as_sample_init (&S);
  }
  ~Work (void) { release (); }
  Work (const Work&) = delete;
  Work& operator = (const Work&) = delete;

  void release (void)
  {
    as_sample_free (&S, &c);
    for (int t = 0; t < m_nown; t++)
      std::free (m_own[t]);
    m_nown = 0;
  }

  // malloc'd buffer freed by release (); raises noMemory on failure.
  void * alloc (size_t count, size_t size)
  {
    void *p = (count == 0 || size == 0) ? std::malloc (1)
              : (count > (size_t) -1 / size ? nullptr : std::malloc (count * size));
    if (! p || m_nown == max_own)
      {
        std::free (p);
        fail ("noMemory", "out of memory allocating %.0f bytes",
              (double) count * (double) size);
      }
    m_own[m_nown++] = p;
    return p;
  }

  // Free everything, then raise "attsparse:<id>" with "<fname>: <message>".
  [[noreturn]] void fail (const char *id, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__ ((format (printf, 3, 4)))
#endif
  {
    char text[768], msg[1024];
    va_list ap;
    va_start (ap, fmt);
    std::vsnprintf (text, sizeof text, fmt, ap);
    va_end (ap);
    std::snprintf (msg, sizeof msg, "%s: %s", m_fname, text);
    release ();
    raise (id, msg);
  }

  // A warning "attsparse:overflow" when the relative metrics overflowed.
  void warn_overflow (const as_metrics& M)
  {
    if (! std::isfinite (M.rel) || ! std::isfinite (M.baseline))
      mexWarnMsgIdAndTxt ("attsparse:overflow",
                          "%s: the relative attention error overflows to Inf: max |X X'| = %g, "
                          "so Att(X) has entries near exp(-%g); the spectral eps is unaffected",
                          m_fname, M.r, 2 * M.r);
  }

  // Raise the core's status, if any.
  void check (int status)
  {
    if (status != AS_OK)
      fail (as_status_id (status), "%s", c.msg);
  }

  as_common c;
  as_sample S;

private:
  static const int max_own = 16;
  const char *m_fname;
  void *m_own[max_own];
  int m_nown = 0;
};

// "a 1x2 double", "a complex double", "a cell" for messages about arguments.
void describe (const mxArray *a, char *buf, size_t len)
{
  char dims[96] = "";
  const mwSize *dv = mxGetDimensions (a);
  size_t at = 0;
  for (mwSize k = 0; k < mxGetNumberOfDimensions (a) && at < sizeof dims; k++)
    at += std::snprintf (dims + at, sizeof dims - at, "%s%ld", k ? "x" : "", (long) dv[k]);
  std::snprintf (buf, len, "a %s%s %s", dims,
                 mxIsComplex (a) ? " complex" : (mxIsSparse (a) ? " sparse" : ""),
                 mxGetClassName (a));
}

// ------------------------------------------------------------------ X views

// Octave's sparse index type is mwIndex. When it is the core's int64_t the
// arrays are viewed in place; overload resolution makes that choice at
// compile time (an exact match beats the template), so no pointer is cast.
void view_csc (Work&, as_matrix *A, int64_t n, int64_t d, const int64_t *jc,
               const int64_t *ir, const double *x)
{
  as_view_csc64 (A, n, d, jc, ir, x);
}

template <typename I>
void view_csc (Work& w, as_matrix *A, int64_t n, int64_t d, const I *jc,
               const I *ir, const double *x)
{
  int64_t nz = (int64_t) jc[d], t;
  int64_t *p = static_cast<int64_t *> (w.alloc ((size_t) d + 1, sizeof (int64_t)));
  int64_t *i = static_cast<int64_t *> (w.alloc ((size_t) nz, sizeof (int64_t)));
  for (t = 0; t <= d; t++)
    p[t] = (int64_t) jc[t];
  for (t = 0; t < nz; t++)
    i[t] = (int64_t) ir[t];
  as_view_csc64 (A, n, d, p, i, x);
}

// A view of a real double 2-D matrix, full or sparse; raises badInput naming
// the argument for anything else. Empty or non-finite X is left to the core.
void view_matrix (Work& w, const mxArray *a, const char *argname, as_matrix *A)
{
  static const mwIndex no_index = 0;
  static const double no_value = 0;
  char what[96];
  if (! mxIsDouble (a) || mxIsComplex (a) || mxGetNumberOfDimensions (a) != 2)
    {
      describe (a, what, sizeof what);
      w.fail ("badInput", "%s must be a real matrix (full or sparse double), got %s",
              argname, what);
    }
  int64_t n = (int64_t) mxGetM (a), d = (int64_t) mxGetN (a);
  if (mxIsSparse (a))
    {
      // an all-zero sparse matrix may have no storage behind ir and x
      const mwIndex *ir = mxGetIr (a);
      const double *x = mxGetPr (a);
      view_csc (w, A, n, d, mxGetJc (a), ir ? ir : &no_index, x ? x : &no_value);
    }
  else
    as_view_dense (A, n, d, mxGetPr (a), n);
}

// ------------------------------------------------------------------ options

enum OptKind { OPT_REAL, OPT_WHOLE, OPT_FLAG, OPT_CHOICE };

struct OptSpec
{
  const char *name;
  OptKind kind;
  double lo, hi;          // accepted range (OPT_REAL: none when lo == hi)
  const char *choices;    // OPT_CHOICE: "a|b|c", stored as the position
};

const double int_max = 2147483647.0;
const double seed_max = 9007199254740991.0;   // 2^53 - 1

const OptSpec common_threads = { "threads", OPT_WHOLE, 0, AS_THREADS_MAX, nullptr };
const OptSpec common_verbose = { "verbose", OPT_FLAG, 0, 0, nullptr };

// a equals the first blen characters of b, ignoring case (and has no more)
bool same_name (const char *a, const char *b, size_t blen)
{
  if (std::strlen (a) != blen)
    return false;
  for (size_t t = 0; t < blen; t++)
    if (std::tolower ((unsigned char) a[t]) != std::tolower ((unsigned char) b[t]))
      return false;
  return true;
}

// The value of option or argument o, checked against its kind.
double opt_value (Work& w, const OptSpec& o, const mxArray *v)
{
  char what[96];
  describe (v, what, sizeof what);
  if (o.kind == OPT_CHOICE)
    {
      char s[64];
      if (! mxIsChar (v) || mxGetM (v) != 1 || mxGetString (v, s, sizeof s) != 0)
        w.fail ("badArgument", "'%s' must be one of %s; got %s", o.name, o.choices, what);
      const char *c = o.choices;
      for (int pos = 0; *c; pos++)
        {
          size_t len = std::strcspn (c, "|");
          if (same_name (s, c, len))
            return pos;
          c += len + (c[len] == '|');
        }
      w.fail ("badArgument", "'%s' must be one of %s; got '%s'", o.name, o.choices, s);
    }
  bool scalar = (mxIsNumeric (v) || mxIsLogical (v)) && ! mxIsComplex (v)
                && ! mxIsSparse (v) && mxGetNumberOfElements (v) == 1;
  double x = scalar ? mxGetScalar (v) : NAN;
  if (o.kind == OPT_FLAG)
    {
      if (x != 0 && x != 1)
        w.fail ("badArgument", "'%s' must be true or false; got %s", o.name, what);
      return x;
    }
  if (! scalar || mxIsLogical (v))
    w.fail ("badArgument", "'%s' must be a real numeric scalar; got %s", o.name, what);
  if (o.kind == OPT_REAL && ! std::isfinite (x))
    w.fail ("badArgument", "'%s' must be finite; got %g", o.name, x);
  if (o.kind == OPT_REAL && o.lo < o.hi && ! (x >= o.lo && x <= o.hi))
    w.fail ("badArgument", "'%s' must be in [%g, %g]; got %g", o.name, o.lo, o.hi, x);
  if (o.kind == OPT_WHOLE && ! (x >= o.lo && x <= o.hi && x == std::floor (x)))
    w.fail ("badArgument", "'%s' must be a whole number in [%.17g, %.17g]; got %.17g",
            o.name, o.lo, o.hi, x);
  return x;
}

// Name/value pairs, case-insensitive names, checked against a table.
class Options
{
public:
  Options (Work& w, const OptSpec *spec, int nspec)
    : m_w (w), m_spec (spec), m_nspec (nspec < max_spec ? nspec : max_spec)
  {
    for (int t = 0; t < nspec; t++)
      m_given[t] = false;
  }

  void parse (const mxArray *const *args, int nargs)
  {
    char name[64], what[96];
    if (nargs % 2 != 0)
      m_w.fail ("badArgument", "options must come in name/value pairs; got %d option argument%s",
                nargs, nargs == 1 ? "" : "s");
    for (int a = 0; a < nargs; a += 2)
      {
        const mxArray *nm = args[a];
        if (! mxIsChar (nm) || mxGetM (nm) != 1 || mxGetNumberOfDimensions (nm) != 2)
          {
            describe (nm, what, sizeof what);
            m_w.fail ("badArgument", "option names must be strings; option argument %d is %s",
                      a + 1, what);
          }
        char valid[512] = "";
        for (int u = 0; u < m_nspec; u++)
          {
            std::strncat (valid, u ? ", " : "", sizeof valid - std::strlen (valid) - 1);
            std::strncat (valid, m_spec[u].name, sizeof valid - std::strlen (valid) - 1);
          }
        // no option name is that long: say so without reading it into the buffer
        size_t len = mxGetNumberOfElements (nm);
        if (len >= sizeof name)
          m_w.fail ("badArgument", "unknown option of %zu characters (option argument %d); valid options: %s",
                    len, a + 1, valid);
        if (mxGetString (nm, name, sizeof name) != 0 || std::strlen (name) != len)
          m_w.fail ("badArgument", "option argument %d holds a NUL character; valid options: %s",
                    a + 1, valid);
        int t = find (name);
        if (t < 0)
          m_w.fail ("badArgument", "unknown option '%s'; valid options: %s", name, valid);
        if (m_given[t])
          m_w.fail ("badArgument", "option '%s' is given twice", m_spec[t].name);
        m_value[t] = opt_value (m_w, m_spec[t], args[a + 1]);
        m_given[t] = true;
      }
  }

  double get (const char *name, double dflt) const
  {
    int t = find (name);
    return t >= 0 && m_given[t] ? m_value[t] : dflt;
  }

private:
  int find (const char *name) const
  {
    for (int t = 0; t < m_nspec; t++)
      if (same_name (name, m_spec[t].name, std::strlen (m_spec[t].name)))
        return t;
    return -1;
  }

  static const int max_spec = 24;
  Work& m_w;
  const OptSpec *m_spec;
  int m_nspec;
  bool m_given[max_spec];
  double m_value[max_spec];
};

// ------------------------------------------------------------------ outputs

// Fields of a 1x1 struct, added in order.
class Fields
{
public:
  void add (const char *name, mxArray *v)
  {
    m_names[m_n] = name;
    m_vals[m_n++] = v;
  }
  void add (const char *name, double v) { add (name, mxCreateDoubleScalar (v)); }
  mxArray * make (void)
  {
    mxArray *s = mxCreateStructMatrix (1, 1, m_n, m_names);
    for (int t = 0; t < m_n; t++)
      mxSetFieldByNumber (s, 0, t, m_vals[t]);
    return s;
  }
private:
  const char *m_names[32];
  mxArray *m_vals[32];
  int m_n = 0;
};

double seconds_since (std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double> (std::chrono::steady_clock::now () - t0).count ();
}

// Y = X(:, index) .* weight', written straight into Octave's arrays when the
// index types agree (see view_csc), else through int64_t buffers.
void select_csc (Work& w, const as_matrix *X, const as_sample *S, int64_t *jc,
                 int64_t *ir, double *pr)
{
  as_select_csc64 (X, S->k, S->index, S->weight, jc, ir, pr, &w.c);
}

template <typename I>
void select_csc (Work& w, const as_matrix *X, const as_sample *S, I *jc, I *ir,
                 double *pr)
{
  int64_t nz = as_select_nnz (X, S->k, S->index), t;
  int64_t *p = static_cast<int64_t *> (w.alloc ((size_t) S->k + 1, sizeof (int64_t)));
  int64_t *i = static_cast<int64_t *> (w.alloc ((size_t) nz, sizeof (int64_t)));
  as_select_csc64 (X, S->k, S->index, S->weight, p, i, pr, &w.c);
  for (t = 0; t <= S->k; t++)
    jc[t] = (I) p[t];
  for (t = 0; t < nz; t++)
    ir[t] = (I) i[t];
}

mxArray * make_y (Work& w, const as_matrix *X)
{
  const as_sample *S = &w.S;
  if (X->kind == AS_DENSE)
    {
      mxArray *Y = mxCreateDoubleMatrix ((mwSize) X->nrow, (mwSize) S->k, mxREAL);
      if (S->k > 0)
        as_select_dense (X, S->k, S->index, S->weight, mxGetPr (Y), &w.c);
      return Y;
    }
  int64_t nz = as_select_nnz (X, S->k, S->index);
  mxArray *Y = mxCreateSparse ((mwSize) X->nrow, (mwSize) S->k, (mwSize) (nz > 0 ? nz : 1),
                               mxREAL);
  select_csc (w, X, S, mxGetJc (Y), mxGetIr (Y), mxGetPr (Y));
  return Y;
}

// The metrics as struct fields, the first two under the caller's names.
void metric_fields (const as_metrics& M, const char *inf_name, const char *rel_name,
                    Fields& f)
{
  f.add (inf_name, M.inf);
  f.add (rel_name, M.rel);
  f.add ("baseline", M.baseline);
  f.add ("r", M.r);
  f.add ("eps_spectral", M.eps_spectral);
  f.add ("bound", M.bound);
}

// Metrics of w.S against X as struct fields; NaN for what was not asked.
// Returns the infinity-norm error.
double add_metrics (Work& w, const as_matrix *X, bool error, bool spectral, Fields& info)
{
  as_metrics M;
  M.inf = M.rel = M.baseline = M.r = M.eps_spectral = M.bound = NAN;
  double t_err = NAN;
  if (error || spectral)
    {
      auto t0 = std::chrono::steady_clock::now ();
      w.check (as_attention_error (X, w.S.k, w.S.index, w.S.weight, spectral, &M, &w.c));
      t_err = seconds_since (t0);
      if (! error)
        M.inf = M.rel = M.baseline = M.r = NAN;
      else
        w.warn_overflow (M);
    }
  metric_fields (M, "error", "rel_error", info);
  info.add ("error_time", t_err);
  return M.inf;
}

// Y and err of a sample, and the info fields every algorithm has: index
// (1-based) and weight columns, sizes, time and metrics.
void sample_outputs (Work& w, const as_matrix *X, const Options& o, double time,
                     Fields& info, int nlhs, mxArray *plhs[])
{
  const as_sample *S = &w.S;
  bool error = o.get ("error", 1) != 0;
  bool spectral = o.get ("spectral", error) != 0;
  mxArray *index = mxCreateDoubleMatrix ((mwSize) S->k, 1, mxREAL);
  mxArray *weight = mxCreateDoubleMatrix ((mwSize) S->k, 1, mxREAL);
  for (int64_t t = 0; t < S->k; t++)
    {
      mxGetPr (index)[t] = (double) S->index[t] + 1;
      mxGetPr (weight)[t] = S->weight[t];
    }
  info.add ("index", index);
  info.add ("weight", weight);
  info.add ("m", (double) S->m);
  info.add ("k", (double) S->k);
  info.add ("rank", (double) S->rank);
  info.add ("eps", S->eps_target);
  info.add ("time", time);
  double err = add_metrics (w, X, error, spectral, info);
  plhs[0] = make_y (w, X);
  if (nlhs > 1)
    plhs[1] = mxCreateDoubleScalar (err);
}

// ------------------------------------------------------------------ commands

typedef void (*command_fn) (Work&, int, mxArray *[], int, const mxArray *[]);

void need_args (Work& w, int nrhs, int want)
{
  if (nrhs < want)
    w.fail ("badArgument", "expected at least %d argument%s, got %d", want,
            want == 1 ? "" : "s", nrhs);
}

// The start of a command on matrices: views of X (and Y when asked), then
// the options that follow them; threads and verbose go to the core.
template <size_t N>
Options start (Work& w, const OptSpec (&spec)[N], int nrhs, const mxArray *prhs[],
               as_matrix *X, as_matrix *Y = nullptr)
{
  int nmat = Y ? 2 : 1;
  need_args (w, nrhs, nmat);
  view_matrix (w, prhs[0], "X", X);
  if (Y)
    view_matrix (w, prhs[1], "Y", Y);
  Options o (w, spec, (int) N);
  o.parse (prhs + nmat, nrhs - nmat);
  w.c.nthreads = (int) o.get ("threads", 0);
  w.c.verbose = o.get ("verbose", 0) != 0;
  return o;
}

const OptSpec rand_spec[] = {
  { "m", OPT_WHOLE, 1, (double) AS_M_MAX, nullptr },
  { "eps", OPT_REAL, 0, 0, nullptr },
  { "delta", OPT_REAL, 0, 0, nullptr },
  { "seed", OPT_WHOLE, 0, seed_max, nullptr },
  { "error", OPT_FLAG, 0, 0, nullptr },
  { "spectral", OPT_FLAG, 0, 0, nullptr },
  { "probabilities", OPT_CHOICE, 0, 0, "leverage|uniform|norm|mixed|auto" },
  { "leverage", OPT_CHOICE, 0, 0, "approx|exact" },
  { "jl", OPT_CHOICE, 0, 0, "gaussian|ams" },
  { "s1", OPT_WHOLE, 1, int_max, nullptr },
  { "s", OPT_WHOLE, 1, int_max, nullptr },
  { "s2", OPT_WHOLE, 1, int_max, nullptr },
  { "beta", OPT_REAL, 0, 0, nullptr },
  // MiB; the core checks the range
  { "memory", OPT_REAL, 0, 0, nullptr },
  common_threads,
  common_verbose,
  { "sampling", OPT_CHOICE, 0, 0, "iid|poisson" },
  { "estimate", OPT_FLAG, 0, 0, nullptr },
  { "rel", OPT_REAL, 0, 0, nullptr },
};

// Names of the choices, for the result (positions as in rand_spec).
const char *const prob_names[] = { "leverage", "uniform", "norm", "mixed", "auto" };
const char *const sampling_names[] = { "iid", "poisson" };

// The choice positions above follow the core's AS_PROB_*, AS_LEV_*, AS_JL_*.
static_assert (AS_PROB_LEVERAGE == 0 && AS_PROB_UNIFORM == 1 && AS_PROB_NORM == 2
               && AS_PROB_MIXED == 3 && AS_PROB_AUTO == 4 && AS_SAMPLING_IID == 0 && AS_SAMPLING_POISSON == 1
               && AS_LEV_APPROX == 0 && AS_LEV_EXACT == 1
               && AS_JL_GAUSSIAN == 0 && AS_JL_AMS == 1,
               "option choices out of step with attsparse.h");

// Options shared by rand and leverage, over the core's defaults.
void set_rand_options (const Options& o, as_rand_options *ro)
{
  as_rand_options_init (ro);
  ro->m = (int64_t) o.get ("m", (double) ro->m);
  ro->eps = o.get ("eps", ro->eps);
  ro->delta = o.get ("delta", ro->delta);
  ro->beta = o.get ("beta", ro->beta);
  ro->seed = (uint64_t) o.get ("seed", (double) ro->seed);
  ro->probabilities = (int) o.get ("probabilities", ro->probabilities);
  ro->leverage = (int) o.get ("leverage", o.get ("method", ro->leverage));
  ro->jl = (int) o.get ("jl", ro->jl);
  ro->s1 = (int64_t) o.get ("s1", (double) ro->s1);
  ro->s = (int64_t) o.get ("s", (double) ro->s);
  ro->s2 = (int64_t) o.get ("s2", (double) ro->s2);
  ro->mem_mb = o.get ("memory", ro->mem_mb);
  ro->sampling = (int) o.get ("sampling", ro->sampling);
  ro->estimate = o.get ("estimate", ro->estimate) != 0;
  ro->rel = o.get ("rel", ro->rel);
}

void cmd_rand (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_rand_options ro;
  Options o = start (w, rand_spec, nrhs, prhs, &X);
  set_rand_options (o, &ro);

  auto t0 = std::chrono::steady_clock::now ();
  w.check (as_rand (&X, &ro, &w.S, &w.c));
  double time = seconds_since (t0);

  Fields info;
  sample_outputs (w, &X, o, time, info, nlhs, plhs);
  info.add ("seed", (double) ro.seed);
  info.add ("s1", (double) w.S.s1);
  info.add ("s", (double) w.S.s);
  info.add ("s2", (double) w.S.s2);
  info.add ("sampling", mxCreateString (sampling_names[w.S.sampling]));
  info.add ("probabilities", mxCreateString (prob_names[w.S.probabilities]));
  info.add ("rel_estimate", w.S.rel_estimate);
  info.add ("inf_estimate", w.S.inf_estimate);
  info.add ("rounds", (double) w.S.rounds);
  if (nlhs > 2)
    plhs[2] = info.make ();
}

const OptSpec det_spec[] = {
  { "eps", OPT_REAL, 0, 0, nullptr },
  { "error", OPT_FLAG, 0, 0, nullptr },
  { "spectral", OPT_FLAG, 0, 0, nullptr },
  { "leaf", OPT_WHOLE, 1, 4611686018427387904.0, nullptr },
  // MiB; checked here since the core names it mem_mb in its messages
  { "memory", OPT_REAL, 0, 1e9, nullptr },
  { "search", OPT_CHOICE, 0, 0, "tree|scan" },
  common_threads,
  common_verbose,
};

void cmd_det (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_det_options dopt;
  Options o = start (w, det_spec, nrhs, prhs, &X);
  as_det_options_init (&dopt);
  dopt.eps = o.get ("eps", dopt.eps);
  dopt.leaf = (int64_t) o.get ("leaf", (double) dopt.leaf);
  dopt.mem_mb = o.get ("memory", dopt.mem_mb);
  dopt.search = (int) o.get ("search", dopt.search);

  auto t0 = std::chrono::steady_clock::now ();
  w.check (as_det (&X, &dopt, &w.S, &w.c));
  w.check (as_sample_check_finite (&X, &w.S, &w.c));
  double time = seconds_since (t0);

  Fields info;
  sample_outputs (w, &X, o, time, info, nlhs, plhs);
  info.add ("eps_bound", w.S.eps_bound);
  if (nlhs > 2)
    plhs[2] = info.make ();
}

const OptSpec leverage_spec[] = {
  { "method", OPT_CHOICE, 0, 0, "approx|exact" },
  { "seed", OPT_WHOLE, 0, seed_max, nullptr },
  { "delta", OPT_REAL, 0, 0, nullptr },
  { "jl", OPT_CHOICE, 0, 0, "gaussian|ams" },
  { "s1", OPT_WHOLE, 1, int_max, nullptr },
  { "s", OPT_WHOLE, 1, int_max, nullptr },
  { "s2", OPT_WHOLE, 1, int_max, nullptr },
  common_threads,
  common_verbose,
};

void cmd_leverage (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_rand_options ro;
  int64_t rank = 0;
  Options o = start (w, leverage_spec, nrhs, prhs, &X);
  set_rand_options (o, &ro);
  // the scores go straight into the d x 1 result; the core checks X first
  plhs[0] = mxCreateDoubleMatrix ((mwSize) X.ncol, 1, mxREAL);
  w.check (as_leverage (&X, &ro, mxGetPr (plhs[0]), &rank, &w.c));
  if (nlhs > 1)
    plhs[1] = mxCreateDoubleScalar ((double) rank);
}

const OptSpec error_spec[] = {
  { "spectral", OPT_FLAG, 0, 0, nullptr },
  common_threads,
};

void cmd_error (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X, Y;
  as_metrics M;
  Options o = start (w, error_spec, nrhs, prhs, &X, &Y);
  w.check (as_matrix_check (&X, &w.c));
  if (Y.nrow != X.nrow)
    w.fail ("badInput", "Y must have as many rows as X (%lld); got %lld",
            (long long) X.nrow, (long long) Y.nrow);
  // Y with no column is the empty sketch (uniform attention), not an error
  if (Y.ncol > 0)
    w.check (as_matrix_check_named (&Y, "Y", &w.c));
  size_t nn = (size_t) X.nrow * (size_t) X.nrow;
  double *G = static_cast<double *> (w.alloc (nn, sizeof (double)));
  double *H = static_cast<double *> (w.alloc (nn, sizeof (double)));
  w.check (as_gram (&X, -1, nullptr, nullptr, G, &w.c));
  w.check (as_gram (&Y, -1, nullptr, nullptr, H, &w.c));
  bool spectral = o.get ("spectral", 0) != 0;
  w.check (as_compare_gram (X.nrow, G, H, spectral, &M, &w.c));
  w.warn_overflow (M);
  Fields f;
  metric_fields (M, "inf", "rel", f);
  plhs[0] = f.make ();
}

const OptSpec attention_spec[] = { common_threads };

void cmd_attention (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  start (w, attention_spec, nrhs, prhs, &X);
  w.check (as_matrix_check (&X, &w.c));
  double *G = static_cast<double *> (w.alloc ((size_t) X.nrow * (size_t) X.nrow,
                                              sizeof (double)));
  w.check (as_gram (&X, -1, nullptr, nullptr, G, &w.c));
  w.check (as_gram_finite (X.nrow, G, "X", &w.c));
  plhs[0] = mxCreateDoubleMatrix ((mwSize) X.nrow, (mwSize) X.nrow, mxREAL);
  as_softmax (X.nrow, G, mxGetPr (plhs[0]));
}

void cmd_example (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  need_args (w, nrhs, 4);
  double n = opt_value (w, { "n", OPT_WHOLE, 1, int_max, nullptr }, prhs[0]);
  double d = opt_value (w, { "d", OPT_WHOLE, 1, int_max, nullptr }, prhs[1]);
  double r = opt_value (w, { "r", OPT_REAL, 0, 0, nullptr }, prhs[2]);
  double seed = opt_value (w, { "seed", OPT_WHOLE, 0, seed_max, nullptr }, prhs[3]);
  // refused before allocating, with the R front-end's limit and words
  if (n * d > 4e9)
    w.fail ("tooBig", "'n' and 'd' must be at least 1 with n * d at most 4e9; got %.0f x %.0f", n, d);
  plhs[0] = mxCreateDoubleMatrix ((mwSize) n, (mwSize) d, mxREAL);
  w.check (as_example ((int64_t) n, (int64_t) d, r, (uint64_t) seed, mxGetPr (plhs[0]),
                       &w.c));
}

const OptSpec gram_spec[] = { common_threads };

void cmd_gram (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  start (w, gram_spec, nrhs, prhs, &X);
  w.check (as_matrix_check (&X, &w.c));
  plhs[0] = mxCreateDoubleMatrix ((mwSize) X.nrow, (mwSize) X.nrow, mxREAL);
  w.check (as_gram (&X, -1, nullptr, nullptr, mxGetPr (plhs[0]), &w.c));
}

#include "blocks_commands.h"

struct Command
{
  const char *name, *fname;
  command_fn fn;
};

const Command commands[] = {
  { "rand", "attsparse_rand", cmd_rand },
  { "det", "attsparse_det", cmd_det },
  { "leverage", "leverage_scores", cmd_leverage },
  { "error", "attention_error", cmd_error },
  { "attention", "sym_attention", cmd_attention },
  { "example", "attsparse_example", cmd_example },
  { "gram", "gram", cmd_gram },
  { "rand_blocks", "attsparse_rand", cmd_rand_blocks },
};

}  // namespace

void mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char cmd[32] = "";
  if (nrhs >= 1 && mxIsChar (prhs[0]) && mxGetString (prhs[0], cmd, sizeof cmd) == 0)
    for (const Command& k : commands)
      if (std::strcmp (cmd, k.name) == 0)
        {
          Work w (k.fname);
          k.fn (w, nlhs, plhs, nrhs - 1, prhs + 1);
          return;
        }
  raise ("badArgument", "__attsparse__: the first argument must be a command: "
         "rand, det, leverage, error, attention, example, gram or rand_blocks");
}
