// __attsparse__.cc: the Octave MEX gateway: checks host types and options, makes no-copy views of X, calls the C core, wraps its results.
//
// One MEX file, several entry points chosen by a command string:
//   [Y, err, info] = __attsparse__ ("method", "rand"|"det"|"greedy", X, {K}, {V}, name, value, ...)
//                    any method of the core's table (core/methods.c); Q != K: the sample of [X; K]
//                    ({} for X) with values V ({} for none)
//   [scores, rank] = __attsparse__ ("leverage", X, name, value, ...)
//   metrics        = __attsparse__ ("error", X, Y, name, value, ...)
//   Att            = __attsparse__ ("attention", X, name, value, ...)
//   out            = __attsparse__ ("attention_qkv", Q, {K}, {V}, name, value, ...)
//                    D^-1 exp(Q K') (V) ({} for K: Q itself; {} for V: none)
//   X              = __attsparse__ ("example", n, d, r, seed)
//   m              = __attsparse__ ("default_m", rank, eps, delta, beta)
//   [Y, err, info] = __attsparse__ ("rand_blocks", reader, ncol, nrow, block, name, value, ...)
//   [tau, rank] = __attsparse__ ("leverage_blocks", reader, ncol, nrow, block, name, value, ...)
//   e              = __attsparse__ ("error_blocks", reader, ncol, nrow, block, Y, name, value, ...)
//                    __attsparse__ ("blocks_refuse", "det"|"greedy"): the core's error for X by blocks
//   [warn, note]   = __attsparse__ ("precheck", X, rel): the traps of X before any work ("" for none)
//   warn           = __attsparse__ ("precheck_shape", nrow, ncol): a block reader's shape's trap
// The inst/*.m wrappers convert single/logical/integer input to double and
// pick the default seed from Octave's rand; everything else is checked here
// (host types) or by the core (option names, kinds, ranges and defaults
// from its one table, core/options.c; X).
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
    c.unif_fn = octave_hook_unif;
    as_result_init (&S);
  }
  ~Work (void) { release (); }
  Work (const Work&) = delete;
  Work& operator = (const Work&) = delete;

  void release (void)
  {
    as_result_free (&S, &c);
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

  // The warnings of S in the core's words: "attsparse:overflow" when a figure overflowed to Inf,
  // "attsparse:targetMissed" when a greedy run missed its target.
  void warn_result (const as_result *S)
  {
    char text[512];
    if (as_result_warning (S, text, sizeof text))
      mexWarnMsgIdAndTxt ("attsparse:overflow", "%s: %s", m_fname, text);
    if (as_target_warning (S, text, sizeof text))
      mexWarnMsgIdAndTxt ("attsparse:targetMissed", "%s: %s", m_fname, text);
  }

  // Raise the core's status, if any.
  void check (int status)
  {
    if (status != AS_OK)
      fail (as_status_id (status), "%s", c.msg);
  }

  as_common c;
  as_result S;

  // Q != K (read_qkv): the keys (nullptr: X itself), the values V (n2 x dv, or nullptr)
  const as_matrix *K = nullptr;
  const double *V = nullptr;
  int64_t dv = 0;
  void rename (const char *fname) { m_fname = fname; }

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

// A scalar argument (not an option) of a command, e.g. n of "example": a
// real number, whole when asked, in [lo, hi].
double scalar_arg (Work& w, const char *name, const mxArray *v, bool whole, double lo, double hi)
{
  char what[96];
  describe (v, what, sizeof what);
  bool scalar = mxIsNumeric (v) && ! mxIsComplex (v) && ! mxIsSparse (v) && ! mxIsLogical (v)
                && mxGetNumberOfElements (v) == 1;
  if (! scalar)
    w.fail ("badArgument", "'%s' must be a real numeric scalar; got %s", name, what);
  double x = mxGetScalar (v);
  if (! std::isfinite (x))
    w.fail ("badArgument", "'%s' must be finite; got %g", name, x);
  if (! (x >= lo && x <= hi && (! whole || x == std::floor (x))))
    w.fail ("badArgument", "'%s' must be a whole number in [%.17g, %.17g]; got %.17g", name,
            lo, hi, x);
  return x;
}

// An Octave value as the core's host value; which kinds an option takes,
// and the messages, are the core's (as_options_put), as in R.
void host_value (const mxArray *v, as_host_value *h, char *what, size_t len)
{
  describe (v, what, len);
  h->what = what;
  h->text = nullptr;
  h->number = NAN;
  h->type = AS_HOST_OTHER;
  h->length = (int64_t) mxGetNumberOfElements (v);
  if (mxIsChar (v) && mxGetNumberOfDimensions (v) == 2 && mxGetM (v) <= 1)
    {
      h->length = 1;   // a char row is one string (the caller reads it into text)
      h->type = AS_HOST_STRING;
      return;
    }
  if (mxIsComplex (v) || mxIsSparse (v) || ! (mxIsNumeric (v) || mxIsLogical (v)))
    return;
  h->type = mxIsLogical (v) ? AS_HOST_LOGICAL : AS_HOST_NUMBER;
  if (h->length != 1)
    return;
  // a 64-bit integer beyond 2^53 has no exact double: said as it is
  if (mxIsInt64 (v) || mxIsUint64 (v))
    {
      bool big = mxIsInt64 (v) ? std::llabs (*static_cast<const long long *> (mxGetData (v))) > (1LL << 53)
                               : *static_cast<const unsigned long long *> (mxGetData (v)) > (1ULL << 53);
      if (big)
        {
          h->type = AS_HOST_OTHER;
          if (mxIsInt64 (v))
            std::snprintf (what, len, "%lld", *static_cast<const long long *> (mxGetData (v)));
          else
            std::snprintf (what, len, "%llu", *static_cast<const unsigned long long *> (mxGetData (v)));
          return;
        }
    }
  h->number = mxGetScalar (v);
  if (std::isnan (h->number))
    std::snprintf (what, len, "NaN");
}

// Name/value pairs into the core's options of `call` (one AS_FOR_*) in o:
// names are matched exactly, values checked, repeats refused, all by the core.
void set_options (Work& w, unsigned call, void *o, const mxArray *const *args, int nargs)
{
  char name[64], what[96], valid[512], text[256];
  as_option_names (call, valid, sizeof valid);
  if (nargs % 2 != 0)
    w.fail ("badArgument", "options must come in name/value pairs; got %d option argument%s",
            nargs, nargs == 1 ? "" : "s");
  for (int a = 0; a < nargs; a += 2)
    {
      const mxArray *nm = args[a], *v = args[a + 1];
      if (! mxIsChar (nm) || mxGetM (nm) != 1 || mxGetNumberOfDimensions (nm) != 2)
        {
          describe (nm, what, sizeof what);
          w.fail ("badArgument", "option names must be strings; option argument %d is %s",
                  a + 1, what);
        }
      // no option name is that long: say so without reading it into the buffer
      size_t len = mxGetNumberOfElements (nm);
      if (len >= sizeof name)
        w.fail ("badArgument", "unknown option of %zu characters (option argument %d); valid options: %s",
                len, a + 1, valid);
      if (mxGetString (nm, name, sizeof name) != 0 || std::strlen (name) != len)
        w.fail ("badArgument", "option argument %d holds a NUL character; valid options: %s",
                a + 1, valid);
      as_host_value h;
      host_value (v, &h, what, sizeof what);
      if (h.type == AS_HOST_STRING)
        {
          if (mxGetNumberOfElements (v) >= sizeof text || mxGetString (v, text, sizeof text) != 0)
            text[0] = '\0';
          h.text = text;
        }
      w.check (as_options_put (call, o, name, &h, &w.c));
    }
}

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
  const char *m_names[64];
  mxArray *m_vals[64];
  int m_n = 0;
};

// Y = X(:, index) .* weight', written straight into Octave's arrays when the
// index types agree (see view_csc), else through int64_t buffers.
void select_csc (Work& w, const as_matrix *X, const as_result *S, const int64_t *index,
                 int64_t *jc, int64_t *ir, double *pr)
{
  as_select_csc64 (X, S->k, index, S->weight, jc, ir, pr, &w.c);
}

template <typename I>
void select_csc (Work& w, const as_matrix *X, const as_result *S, const int64_t *index, I *jc,
                 I *ir, double *pr)
{
  int64_t nz = as_select_nnz (X, S->k, index), t;
  int64_t *p = static_cast<int64_t *> (w.alloc ((size_t) S->k + 1, sizeof (int64_t)));
  int64_t *i = static_cast<int64_t *> (w.alloc ((size_t) nz, sizeof (int64_t)));
  as_select_csc64 (X, S->k, index, S->weight, p, i, pr, &w.c);
  for (t = 0; t <= S->k; t++)
    jc[t] = (I) p[t];
  for (t = 0; t < nz; t++)
    ir[t] = (I) i[t];
}

// Y's columns are X's cols (nullptr: the sample's index).
mxArray * make_y (Work& w, const as_matrix *X, const int64_t *cols = nullptr)
{
  const as_result *S = &w.S;
  const int64_t *index = cols ? cols : S->index;
  if (X->kind == AS_DENSE)
    {
      mxArray *Y = mxCreateDoubleMatrix ((mwSize) X->nrow, (mwSize) S->k, mxREAL);
      if (S->k > 0)
        as_select_dense (X, S->k, index, S->weight, mxGetPr (Y), &w.c);
      return Y;
    }
  int64_t nz = as_select_nnz (X, S->k, index);
  mxArray *Y = mxCreateSparse ((mwSize) X->nrow, (mwSize) S->k, (mwSize) (nz > 0 ? nz : 1),
                               mxREAL);
  select_csc (w, X, S, index, mxGetJc (Y), mxGetIr (Y), mxGetPr (Y));
  return Y;
}

double seconds_since (std::chrono::steady_clock::time_point t0)
{
  return std::chrono::duration<double> (std::chrono::steady_clock::now () - t0).count ();
}

// A result as Octave's outputs, every row of the core's field table
// (core/result.c) that S has, in order: Y is the first output (made from X,
// its columns X's cols, nullptr: the sample's index; X null: left to the
// caller), the other rows are fields of info, the third; the second is the
// inf error.
void result_fields (Work& w, const as_matrix *X, Fields& info, int nlhs, mxArray *plhs[],
                    const int64_t *cols = nullptr)
{
  const as_result *S = &w.S;
  char text[256];
  for (int t = 0; t < as_field_count (); t++)
    {
      const as_field *f = as_field_at (t);
      if (! as_field_present (f, S->call, S))
        continue;
      switch (f->kind)
        {
        case AS_FIELD_Y:
          if (X)
            plhs[0] = make_y (w, X, cols);
          break;
        case AS_FIELD_YK:
          info.add (f->name, make_y (w, w.K));
          break;
        case AS_FIELD_INDEX:
        case AS_FIELD_WEIGHT:
          {
            mxArray *v = mxCreateDoubleMatrix ((mwSize) S->k, 1, mxREAL);
            for (int64_t j = 0; j < S->k; j++)
              mxGetPr (v)[j] = f->kind == AS_FIELD_INDEX ? (double) S->index[j] + 1 : S->weight[j];
            info.add (f->name, v);
            break;
          }
        case AS_FIELD_TEXT:
          info.add (f->name, mxCreateString (as_field_text (f, S, text, sizeof text)));
          break;
        default:
          info.add (f->name, as_field_number (f, S));
        }
    }
  w.warn_result (S);
  if (nlhs > 1)
    plhs[1] = mxCreateDoubleScalar (S->metrics.inf);
}

void result_outputs (Work& w, const as_matrix *X, int nlhs, mxArray *plhs[])
{
  Fields info;
  result_fields (w, X, info, nlhs, plhs);
  if (nlhs > 2)
    plhs[2] = info.make ();
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
// the options that follow them into o.
void start (Work& w, unsigned call, void *o, int nrhs, const mxArray *prhs[], as_matrix *X,
            as_matrix *Y = nullptr)
{
  int nmat = Y ? 2 : 1;
  need_args (w, nrhs, nmat);
  view_matrix (w, prhs[0], "X", X);
  if (Y)
    view_matrix (w, prhs[1], "Y", Y);
  set_options (w, call, o, prhs + nmat, nrhs - nmat);
}

void cmd_leverage (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_rand_options ro;
  int64_t rank = 0;
  as_rand_options_init (&ro);
  start (w, AS_FOR_LEVERAGE, &ro, nrhs, prhs, &X);
  // the scores go straight into the d x 1 result; the core checks X first
  plhs[0] = mxCreateDoubleMatrix ((mwSize) X.ncol, 1, mxREAL);
  w.check (as_leverage (&X, &ro, mxGetPr (plhs[0]), &rank, &w.c));
  if (nlhs > 1)
    plhs[1] = mxCreateDoubleScalar ((double) rank);
}

void cmd_error (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X, Y;
  as_metrics M;
  as_metrics_options mo;
  as_metrics_options_init (&mo);
  start (w, AS_FOR_METRICS, &mo, nrhs, prhs, &X, &Y);
  w.check (as_attention_error_xy (&X, &Y, &mo, &M, &w.c));
  as_metrics_result (&M, mo.spectral, &w.S);
  Fields f;
  result_fields (w, nullptr, f, 1, plhs);
  plhs[0] = f.make ();
}

void cmd_attention (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_metrics_options mo;
  as_metrics_options_init (&mo);
  start (w, AS_FOR_GRAM, &mo, nrhs, prhs, &X);
  w.check (as_matrix_check (&X, &w.c));   // before the n x n result is allocated
  w.check (as_output_check (AS_OUT_SYM_ATTENTION, &X, nullptr, -1, &mo, &w.c));
  plhs[0] = mxCreateDoubleMatrix ((mwSize) X.nrow, (mwSize) X.nrow, mxREAL);
  w.check (as_sym_attention (&X, mxGetPr (plhs[0]), &w.c));
}

// The scalar arguments of a command that takes numbers, not options (example,
// default_m): [] takes the core's default (NaN); the ranges are the core's.
void scalar_args (Work& w, int count, const char *const names[], const mxArray *prhs[], double *a)
{
  char what[96];
  for (int t = 0; t < count; t++)
    {
      const mxArray *v = prhs[t];
      if (mxIsEmpty (v) && mxIsDouble (v))
        a[t] = NAN;
      else if (mxIsNumeric (v) && ! mxIsComplex (v) && ! mxIsSparse (v) && mxGetNumberOfElements (v) == 1
               && ! std::isnan (mxGetScalar (v)))
        a[t] = mxGetScalar (v);
      else
        {
          as_host_value h;
          host_value (v, &h, what, sizeof what);
          w.fail ("badArgument", "'%s' must be a single number, got %s", names[t], h.what);
        }
    }
}

void cmd_example (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  need_args (w, nrhs, 4);
  const char *const names[4] = { "n", "d", "r", "seed" };
  double a[4];
  scalar_args (w, 4, names, prhs, a);
  w.check (as_example_args (&a[0], &a[1], &a[2], &a[3], &w.c));
  plhs[0] = mxCreateDoubleMatrix ((mwSize) a[0], (mwSize) a[1], mxREAL);
  w.check (as_example ((int64_t) a[0], (int64_t) a[1], a[2], (uint64_t) a[3], mxGetPr (plhs[0]),
                       &w.c));
}

void cmd_default_m (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  need_args (w, nrhs, 4);
  const char *const names[4] = { "rank", "eps", "delta", "beta" };
  double a[4], m;
  scalar_args (w, 4, names, prhs, a);
  w.check (as_default_m_args (a[0], a[1], a[2], a[3], &m, &w.c));
  plhs[0] = mxCreateDoubleScalar (m);
}

void cmd_gram (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_metrics_options mo;
  as_metrics_options_init (&mo);
  start (w, AS_FOR_GRAM, &mo, nrhs, prhs, &X);
  w.check (as_matrix_check (&X, &w.c));
  w.check (as_output_check (AS_OUT_GRAM, &X, nullptr, -1, &mo, &w.c));
  plhs[0] = mxCreateDoubleMatrix ((mwSize) X.nrow, (mwSize) X.nrow, mxREAL);
  w.check (as_gram (&X, -1, nullptr, nullptr, mxGetPr (plhs[0]), &w.c));
}

// ------------------------------------------------------------------ Q != K

// The values of a sparse V as a full column-major array (the core takes V full).
const double * full_values (Work& w, const mxArray *V)
{
  size_t m = mxGetM (V), n = mxGetN (V);
  double *v = static_cast<double *> (w.alloc (m * n, sizeof (double)));
  const mwIndex *jc = mxGetJc (V), *ir = mxGetIr (V);
  const double *x = mxGetPr (V);
  std::fill (v, v + m * n, 0.0);
  for (size_t j = 0; j < n; j++)
    for (mwIndex t = jc[j]; t < jc[j + 1]; t++)
      v[ir[t] + j * m] = x[t];
  return v;
}

// The keys Kc and values Vc beside X (named xname in messages: "X" in the
// sketches, "Q" in attention), each {} (not given) or {value} (given, even
// when empty: the core says what is wrong): K viewed into *K, the shapes
// checked by the core against X's, then w.K, w.V and w.dv set.
void read_qkv (Work& w, const mxArray *X, const mxArray *Kc, const mxArray *Vc, const char *xname,
               as_matrix *K)
{
  char desc[96];
  if (! mxIsCell (Kc) || ! mxIsCell (Vc) || mxGetNumberOfElements (Kc) > 1
      || mxGetNumberOfElements (Vc) > 1)
    w.fail ("badArgument", "K and V must be {} or {value}");
  if (mxGetNumberOfElements (Kc) == 1)
    {
      view_matrix (w, mxGetCell (Kc, 0), "K", K);
      w.K = K;
    }
  const mxArray *V = mxGetNumberOfElements (Vc) == 1 ? mxGetCell (Vc, 0) : nullptr;
  bool has_v = V != nullptr;
  if (has_v && (! mxIsDouble (V) || mxIsComplex (V) || mxGetNumberOfDimensions (V) != 2))
    {
      describe (V, desc, sizeof desc);
      w.fail ("badInput", "V must be a real matrix (full or sparse double), got %s", desc);
    }
  // a row vector is one column of values (as R's plain vector), unless the keys are one row
  int64_t v_rows = has_v ? (int64_t) mxGetM (V) : -1, v_cols = has_v ? (int64_t) mxGetN (V) : 0;
  int64_t n2 = w.K ? w.K->nrow : (int64_t) mxGetM (X);
  if (has_v && v_rows == 1 && n2 != 1)
    {
      v_rows = v_cols;
      v_cols = 1;
    }
  // the shapes (and later V's values) are the core's to check; X's shape is all it reads here
  as_matrix Xshape;
  as_view_dense (&Xshape, (int64_t) mxGetM (X), (int64_t) mxGetN (X), nullptr, (int64_t) mxGetM (X));
  w.check (as_qkv_shapes (&Xshape, w.K, v_rows, v_cols, xname, &w.c));
  if (has_v)
    {
      w.V = mxIsSparse (V) ? full_values (w, V) : mxGetPr (V);
      w.dv = v_cols;
    }
}

// "method", name, X, {K}, {V}, options: the row `name` of the core's method
// table run on X (and K, V): its options struct, filled from the options,
// fitted to X, the run, the result.
void cmd_method (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  char name[32] = "";
  as_matrix X, K;
  need_args (w, nrhs, 4);
  if (mxIsChar (prhs[0]))
    mxGetString (prhs[0], name, sizeof name);
  const as_method *m = as_method_find (name);
  if (! m)
    w.fail ("badArgument", "method: the second argument must be a method such as \"rand\"");
  w.rename (m->fname);
  read_qkv (w, prhs[1], prhs[2], prhs[3], "X", &K);
  view_matrix (w, prhs[1], "X", &X);
  void *o = w.alloc (1, m->options_size);
  m->options_init (o);
  set_options (w, m->call, o, prhs + 4, nrhs - 4);
  if (m->options_fit)
    m->options_fit (o, X.nrow, X.ncol);
  w.check (m->run (&X, w.K, w.V, w.dv, o, &w.S, &w.c));
  result_outputs (w, &X, nlhs, plhs);
}

// "attention_qkv", Q, {K}, {V}, options: D^-1 exp(Q K') (V), K {} for Q itself
void cmd_attention_qkv (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix Q, Kv;
  as_metrics_options mo;
  as_metrics_options_init (&mo);
  need_args (w, nrhs, 3);
  read_qkv (w, prhs[0], prhs[1], prhs[2], "Q", &Kv);
  view_matrix (w, prhs[0], "X", &Q);
  set_options (w, AS_FOR_GRAM, &mo, prhs + 3, nrhs - 3);
  const as_matrix *K = w.K ? w.K : &Q;
  w.check (as_output_check (AS_OUT_ATTENTION, &Q, K, w.V ? w.dv : -1, &mo, &w.c));
  plhs[0] = mxCreateDoubleMatrix ((mwSize) Q.nrow, (mwSize) (w.V ? w.dv : K->nrow), mxREAL);
  w.check (as_attention_qkv (&Q, K, w.V, w.dv, mxGetPr (plhs[0]), &w.c));
}

// ------------------------------------------------------------------ block input

// The core's reader over the user's function handle (wrapped by the private
// read_block.m, which turns the handle's own error into a struct holding its
// message). It never raises: the core's run ends by its status, and the
// gateway raises after.
class HandleReader
{
public:
  HandleReader (const mxArray *fn, int64_t piece) : m_fn (fn)
  {
    reader.read = read;
    reader.ctx = this;
    reader.piece = piece;
  }
  ~HandleReader (void) { drop (); }
  HandleReader (const HandleReader&) = delete;
  HandleReader& operator = (const HandleReader&) = delete;
  as_reader reader;

private:
  static int read (void *ctx, int64_t j0, int64_t j1, as_matrix *B, char *msg, size_t len)
  {
    try
      {
        return static_cast<HandleReader *> (ctx)->call (j0, j1, B, msg, len);
      }
    catch (...)
      {
        std::snprintf (msg, len, "out of memory");
        return AS_ERR_NOMEM;
      }
  }

  // Columns j0+1 .. j1 through the handle, viewed in *B (valid until the next call).
  int call (int64_t j0, int64_t j1, as_matrix *B, char *msg, size_t len)
  {
    drop ();
    mxArray *in[3] = { const_cast<mxArray *> (m_fn), mxCreateDoubleScalar ((double) j0 + 1),
                       mxCreateDoubleScalar ((double) j1) };
    int interrupted = 0;
    mexSetTrapFlag (1);
    int bad = octave_hook_call (1, &m_out, 3, in, "feval", &interrupted);
    mexSetTrapFlag (0);
    mxDestroyArray (in[1]);
    mxDestroyArray (in[2]);
    if (interrupted || bad || ! m_out)
      {
        m_out = nullptr;
        std::snprintf (msg, len, "its call failed");
        return interrupted ? AS_ERR_INTERRUPT : 1;
      }
    if (mxIsStruct (m_out))
      {
        mxArray *f = mxGetField (m_out, 0, "message");
        if (! f || ! mxIsChar (f) || mxGetString (f, msg, len) != 0)
          std::snprintf (msg, len, "its error has no message");
        return 1;
      }
    if (! mxIsDouble (m_out) || mxIsComplex (m_out) || mxGetNumberOfDimensions (m_out) != 2)
      {
        char what[96];
        describe (m_out, what, sizeof what);
        std::snprintf (msg, len, "it returned %s, not a real matrix (full or sparse double)", what);
        return 1;
      }
    int64_t n = (int64_t) mxGetM (m_out), d = (int64_t) mxGetN (m_out);
    if (! mxIsSparse (m_out))
      as_view_dense (B, n, d, mxGetPr (m_out), n);
    else
      view (B, n, d, mxGetJc (m_out), mxGetIr (m_out), mxGetPr (m_out));
    return 0;
  }

  // A CSC view: in place when the index type is int64_t, else through copies.
  void view (as_matrix *B, int64_t n, int64_t d, const int64_t *jc, const int64_t *ir, const double *x)
  {
    static const int64_t none = 0;
    static const double zero = 0;
    as_view_csc64 (B, n, d, jc, ir ? ir : &none, x ? x : &zero);
  }
  template <typename I>
  void view (as_matrix *B, int64_t n, int64_t d, const I *jc, const I *ir, const double *x)
  {
    static const double zero = 0;
    m_p.assign (jc, jc + d + 1);
    m_i.assign (ir, ir + (ir ? (size_t) jc[d] : 0));
    m_i.push_back (0);
    as_view_csc64 (B, n, d, m_p.data (), m_i.data (), x ? x : &zero);
  }

  void drop (void)
  {
    if (m_out)
      mxDestroyArray (m_out);
    m_out = nullptr;
  }
  const mxArray *m_fn;
  mxArray *m_out = nullptr;
  std::vector<int64_t> m_p, m_i;
};

// A block run, freed on every exit.
struct RunGuard
{
  Work& w;
  as_blocks *run;
  ~RunGuard () { as_blocks_free (run, &w.c); }
};

// The reader and its "ncol", "nrow" and "block" (the first four arguments of
// the block commands), the run of `what` with options o, driven through it.
as_blocks_result * run_blocks (Work& w, int what, int nrhs, const mxArray *prhs[], const void *o,
                               const as_matrix *Y, RunGuard& g)
{
  need_args (w, nrhs, 4);
  double d = scalar_arg (w, "ncol", prhs[1], true, 1, 9.2e18);
  double n = scalar_arg (w, "nrow", prhs[2], true, 1, 2147483647.0);
  double block = scalar_arg (w, "block", prhs[3], true, 1, 9.2e18);
  HandleReader rd (prhs[0], (int64_t) block);
  w.check (as_blocks_new (what, (int64_t) n, (int64_t) d, o, Y, 0, 1, &g.run, &w.c));
  w.check (as_blocks_drive (g.run, &rd.reader, &w.c));
  return as_blocks_result_get (g.run);
}

//   [Y, err, info] = __attsparse__ ("rand_blocks", reader, ncol, nrow, block, name, value, ...)
void cmd_rand_blocks (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_rand_options ro;
  as_rand_options_init (&ro);
  if (nrhs >= 4)
    set_options (w, AS_FOR_RAND, &ro, prhs + 4, nrhs - 4);
  RunGuard g { w, nullptr };
  as_blocks_result *R = run_blocks (w, AS_BLOCKS_RAND, nrhs, prhs, &ro, nullptr, g);
  // the sample is the gateway's now; Y from the gathered columns, in order
  w.S = R->S;
  as_result_init (&R->S);
  std::vector<int64_t> cols ((size_t) w.S.k + 1);
  for (int64_t t = 0; t < w.S.k; t++)
    cols[(size_t) t] = t;
  Fields info;
  result_fields (w, &R->Xs, info, nlhs, plhs, cols.data ());
  if (nlhs > 2)
    plhs[2] = info.make ();
}

//   [tau, rank] = __attsparse__ ("leverage_blocks", reader, ncol, nrow, block, name, value, ...)
void cmd_leverage_blocks (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_rand_options ro;
  as_rand_options_init (&ro);
  if (nrhs >= 4)
    set_options (w, AS_FOR_LEVERAGE, &ro, prhs + 4, nrhs - 4);
  RunGuard g { w, nullptr };
  as_blocks_result *R = run_blocks (w, AS_BLOCKS_LEVERAGE, nrhs, prhs, &ro, nullptr, g);
  int64_t d = (int64_t) mxGetScalar (prhs[1]);
  plhs[0] = mxCreateDoubleMatrix ((mwSize) d, 1, mxREAL);
  std::copy (R->scores, R->scores + d, mxGetPr (plhs[0]));
  if (nlhs > 1)
    plhs[1] = mxCreateDoubleScalar ((double) R->rank);
}

//   e = __attsparse__ ("error_blocks", reader, ncol, nrow, block, Y, name, value, ...)
void cmd_error_blocks (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_metrics_options mo;
  as_matrix Y;
  as_metrics_options_init (&mo);
  need_args (w, nrhs, 5);
  view_matrix (w, prhs[4], "Y", &Y);
  set_options (w, AS_FOR_METRICS, &mo, prhs + 5, nrhs - 5);
  RunGuard g { w, nullptr };
  as_blocks_result *R = run_blocks (w, AS_BLOCKS_ERROR, nrhs, prhs, &mo, &Y, g);
  as_metrics_result (&R->metrics, mo.spectral, &w.S);
  Fields f;
  result_fields (w, nullptr, f, 1, plhs);
  plhs[0] = f.make ();
}

struct Command
{
  const char *name, *fname;
  command_fn fn;
};

void cmd_blocks_refuse (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

// The traps of X found before any work (core/precheck.c): the warning (X transposed) and the message
// (the logits' scale), "" when none; rel is the target (NaN: none).
void cmd_precheck (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_matrix X;
  as_precheck_out out;
  need_args (w, nrhs, 2);
  view_matrix (w, prhs[0], "X", &X);
  w.check (as_matrix_check (&X, &w.c));
  double rel = (mxIsDouble (prhs[1]) && mxGetNumberOfElements (prhs[1]) == 1) ? mxGetScalar (prhs[1]) : NAN;
  w.check (as_precheck (&X, rel, &out, &w.c));
  plhs[0] = mxCreateString ((out.flags & AS_PRECHECK_TRANSPOSED) ? out.transposed : "");
  plhs[1] = mxCreateString ((out.flags & (AS_PRECHECK_OVERFLOW | AS_PRECHECK_TRIVIAL)) ? out.scale_note : "");
}

// The trap of an X read by blocks, from its shape (nrow, ncol) alone: the warning, "" when none.
void cmd_precheck_shape (Work& w, int, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  as_precheck_out out;
  need_args (w, nrhs, 2);
  as_precheck_shape ((int64_t) mxGetScalar (prhs[0]), (int64_t) mxGetScalar (prhs[1]), &out);
  plhs[0] = mxCreateString ((out.flags & AS_PRECHECK_TRANSPOSED) ? out.transposed : "");
}

const Command commands[] = {
  { "method", "attsparse", cmd_method },
  { "leverage", "leverage_scores", cmd_leverage },
  { "error", "attention_error", cmd_error },
  { "attention", "sym_attention", cmd_attention },
  { "example", "attsparse_example", cmd_example },
  { "default_m", "default_m", cmd_default_m },
  { "gram", "gram", cmd_gram },
  { "attention_qkv", "attention", cmd_attention_qkv },
  { "rand_blocks", "attsparse_rand", cmd_rand_blocks },
  { "leverage_blocks", "leverage_scores", cmd_leverage_blocks },
  { "error_blocks", "attention_error", cmd_error_blocks },
  { "blocks_refuse", "attsparse", cmd_blocks_refuse },
  { "precheck", "attsparse", cmd_precheck },
  { "precheck_shape", "attsparse", cmd_precheck_shape },
};

// The core's refusal of X by blocks (a reader) for a method that needs X in
// memory; the message carries the method's function name (its row's fname).
void cmd_blocks_refuse (Work& w, int, mxArray *[], int nrhs, const mxArray *prhs[])
{
  char method[32] = "";
  need_args (w, nrhs, 1);
  if (!mxIsChar (prhs[0]) || mxGetString (prhs[0], method, sizeof method) != 0)
    w.fail ("badInput", "the method must be a method name such as \"det\"");
  if (const as_method *m = as_method_find (method))
    w.rename (m->fname);
  w.check (as_blocks_refuse (method, &w.c));
}

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
  // the commands named from the table above
  char msg[512] = "__attsparse__: the first argument must be a command:";
  for (const Command& k : commands)
    {
      std::strncat (msg, &k == commands ? " " : ", ", sizeof msg - std::strlen (msg) - 1);
      std::strncat (msg, k.name, sizeof msg - std::strlen (msg) - 1);
    }
  raise ("badArgument", msg);
}
