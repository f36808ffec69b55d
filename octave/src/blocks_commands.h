// blocks_commands.h: the gateway's "rand_blocks" and "leverage_blocks" commands: attsparse_rand and leverage_scores on X read by a function handle, a block of columns at a time.
//
// Included by __attsparse__.cc inside its namespace (it uses Work, scalar_arg, set_options,
// view_matrix, make_y, result_fields, Fields). The core's block passes (core/blocks.c):
//   1. sketch: every canonical chunk of columns read in pieces of at most `block` columns, its
//      leaf summed from zero, the leaves added in chunk order;
//   2. the factor N' (n x s2);  3. per-column scores, piece by piece;
//   4. sampling from the scores of all columns (8 or 16 bytes per column held here);
//   5. the chosen columns read again and gathered, Y's check and the error estimate;
//   and with "error", the Gram of X summed over the pieces (a fourth read).
// The same index and weight as attsparse_rand on X in memory, bit for bit, for any `block`.

// Reads columns j0+1 .. j1 (0-based j0, exclusive j1) through the user's handle.
class BlockReader
{
public:
  BlockReader (Work& w, const mxArray *fn, int64_t n, int64_t d)
    : m_w (w), m_fn (fn), m_n (n), m_d (d) { }
  ~BlockReader (void) { drop (); }
  BlockReader (const BlockReader&) = delete;
  BlockReader& operator = (const BlockReader&) = delete;

  // A view of the columns; valid until the next read.
  const as_matrix& read (int64_t j0, int64_t j1)
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
    if (interrupted)
      {
        m_out = nullptr;
        m_w.fail ("interrupted", "interrupted by the user");
      }
    if (bad || ! m_out)
      {
        m_out = nullptr;
        m_w.fail ("badInput", "the reader failed on columns %lld..%lld (its error is above)",
                  (long long) j0 + 1, (long long) j1);
      }
    char what[64];
    std::snprintf (what, sizeof what, "the reader's columns %lld..%lld", (long long) j0 + 1,
                   (long long) j1);
    view_matrix (m_w, m_out, what, &m_view);
    if (m_view.nrow != m_n || m_view.ncol != j1 - j0)
      m_w.fail ("badInput", "%s must be %lld x %lld, got %lld x %lld", what, (long long) m_n,
                (long long) (j1 - j0), (long long) m_view.nrow, (long long) m_view.ncol);
    int sparse = m_view.kind != AS_DENSE;
    if (m_kind < 0)
      m_kind = sparse;
    else if (m_kind != sparse)
      m_w.fail ("badInput", "%s are %s, the first block was %s: return one kind", what,
                sparse ? "sparse" : "full", m_kind ? "sparse" : "full");
    return m_view;
  }

  bool sparse (void) const { return m_kind == 1; }

private:
  void drop (void)
  {
    if (m_out)
      mxDestroyArray (m_out);
    m_out = nullptr;
  }
  Work& m_w;
  const mxArray *m_fn;
  int64_t m_n, m_d;
  mxArray *m_out = nullptr;
  as_matrix m_view;
  int m_kind = -1;
};

// Columns X(:, index) gathered from the pieces, in CSC (int64) or dense storage.
struct Gathered
{
  std::vector<double> x;
  std::vector<int64_t> p, i;
  as_matrix view;
};

// The factor's N' is owned by the core: freed on every exit through this guard.
struct FactorGuard
{
  Work& w;
  as_block_factor& F;
  ~FactorGuard () { as_block_factor_free (&F, &w.c); }
};

// The reader and its "ncol", "nrow" and "block" (the first four arguments of both commands),
// the options through the core's table `which` (threads and verbose go to w.c), the plan, and
// the columns read at a time (*piece: "block", at most a canonical chunk).
const mxArray *reader_args (Work& w, int nrhs, const mxArray *prhs[], int which, as_rand_options *ro,
                            as_block_plan *P, int64_t *piece)
{
  need_args (w, nrhs, 4);
  double d = scalar_arg (w, "ncol", prhs[1], true, 1, 9.2e18);
  double n = scalar_arg (w, "nrow", prhs[2], true, 1, 2147483647.0);
  double block = scalar_arg (w, "block", prhs[3], true, 1, 9.2e18);
  as_rand_options_init (ro);
  set_options (w, which, ro, prhs + 4, nrhs - 4);
  ro->seed = as_seed_resolve (ro->seed, &w.c);   // one seed for every pass
  w.check (as_block_plan_init ((int64_t) n, (int64_t) d, ro, P, &w.c));
  *piece = (int64_t) block < P->chunk ? (int64_t) block : P->chunk;
  return prhs[0];
}

// Passes 1 to 3: the sketch of every canonical chunk (read in pieces, its leaf summed from zero,
// the leaves added in chunk order), the factor F, then each column's approximate leverage score
// (lev) and squared norm (nrm), as the plan needs them.
void score_passes (Work& w, BlockReader& rd, const as_block_plan& P, const as_rand_options& ro,
                   int64_t piece, as_block_factor& F, std::vector<double>& lev, std::vector<double>& nrm)
{
  size_t len = (size_t) (P.n * P.s1);
  if (P.need_lev)
    {
      std::vector<double> acc (len, 0.0), leaf (len);
      for (int64_t ch = 0; ch < P.nchunk; ch++)
        {
          int64_t c0 = ch * P.chunk, c1 = std::min (c0 + P.chunk, P.d);
          double *target = ch == 0 ? acc.data () : leaf.data ();
          if (ch > 0)
            std::fill (leaf.begin (), leaf.end (), 0.0);
          for (int64_t j0 = c0; j0 < c1; j0 += piece)
            {
              int64_t j1 = std::min (j0 + piece, c1);
              w.check (as_block_sketch (&P, &rd.read (j0, j1), j0, ro.seed, target, &w.c));
            }
          if (ch > 0)
            as_block_sketch_add (&P, acc.data (), leaf.data ());
        }
      w.check (as_block_factor_run (&P, &ro, acc.data (), &F, &w.c));
      lev.resize ((size_t) P.d);
    }
  if (P.need_nrm)
    nrm.resize ((size_t) P.d);
  for (int64_t j0 = 0; j0 < P.d; j0 += piece)
    {
      int64_t j1 = std::min (j0 + piece, P.d);
      w.check (as_block_scores (&rd.read (j0, j1), j0, F.NT, F.q, F.qs,
                                P.need_lev ? lev.data () + j0 : nullptr,
                                P.need_nrm ? nrm.data () + j0 : nullptr, &w.c));
    }
}

//   [tau, rank] = __attsparse__ ("leverage_blocks", reader, ncol, nrow, block, name, value, ...)
// leverage_scores (approximate) on X read by a function handle: the passes 1 to 3 of
// attsparse_rand, the in-memory scores bit for bit; an X no wider than the sketch is read whole.
void cmd_leverage_blocks (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  int64_t piece;
  as_rand_options ro;
  as_block_plan P;
  const mxArray *fn = reader_args (w, nrhs, prhs, AS_FOR_LEVERAGE, &ro, &P, &piece);
  BlockReader rd (w, fn, P.n, P.d);
  mxArray *tau = mxCreateDoubleMatrix ((mwSize) P.d, 1, mxREAL);
  plhs[0] = tau;
  int64_t rank = 0;
  if (P.in_memory)
    w.check (as_leverage (&rd.read (0, P.d), &ro, mxGetPr (tau), &rank, &w.c));
  else
    {
      as_block_factor F;
      std::memset (&F, 0, sizeof F);
      FactorGuard guard { w, F };
      std::vector<double> lev, nrm;
      score_passes (w, rd, P, ro, piece, F, lev, nrm);
      std::copy (lev.begin (), lev.end (), mxGetPr (tau));
      rank = F.rank;
    }
  if (nlhs > 1)
    plhs[1] = mxCreateDoubleScalar ((double) rank);
}

//   [Y, err, info] = __attsparse__ ("rand_blocks", reader, ncol, nrow, block, name, value, ...)
void cmd_rand_blocks (Work& w, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  int64_t piece;
  as_rand_options ro;
  as_block_plan P;
  const mxArray *fn = reader_args (w, nrhs, prhs, AS_FOR_RAND, &ro, &P, &piece);
  bool error = ro.error != 0;
  bool spectral = ro.spectral < 0 ? error : ro.spectral != 0;
  if (P.in_memory)
    w.fail ("badArgument", "X has %lld columns, no more than the sketch's %lld rows: read it whole "
            "and call attsparse_rand on the matrix", (long long) P.d, (long long) P.s1);
  BlockReader rd (w, fn, P.n, P.d);
  auto t0 = std::chrono::steady_clock::now ();
  as_block_factor F;
  std::memset (&F, 0, sizeof F);
  std::vector<double> lev, nrm;
  FactorGuard guard { w, F };
  score_passes (w, rd, P, ro, piece, F, lev, nrm);
  double *term = nullptr;
  w.check (as_block_sample (&P, &ro, F.rank, P.need_lev ? lev.data () : nullptr,
                            P.need_nrm ? nrm.data () : nullptr, &w.S, &term, &w.c));
  std::vector<double> termv (term, term + w.S.k);
  as_free (&w.c, term);
  std::vector<double> ().swap (lev);
  std::vector<double> ().swap (nrm);
  // pass 5: the pieces that hold chosen columns, read again
  Gathered g;
  int64_t k = w.S.k, t = 0;
  bool sparse = rd.sparse ();
  if (sparse)
    g.p.push_back (0);
  while (t < k)
    {
      int64_t j0 = w.S.index[t] / piece * piece, j1 = std::min (j0 + piece, P.d);
      const as_matrix& B = rd.read (j0, j1);
      for (; t < k && w.S.index[t] < j1; t++)
        {
          int64_t j = w.S.index[t] - j0;
          if (B.kind == AS_DENSE)
            g.x.insert (g.x.end (), B.x + j * B.ld, B.x + j * B.ld + B.nrow);
          else
            {
              int64_t a = B.kind == AS_CSC32 ? B.p32[j] : B.p64[j];
              int64_t b = B.kind == AS_CSC32 ? B.p32[j + 1] : B.p64[j + 1];
              for (int64_t e = a; e < b; e++)
                {
                  g.i.push_back (B.kind == AS_CSC32 ? (int64_t) B.i32[e] : B.i64[e]);
                  g.x.push_back (B.x[e]);
                }
              g.p.push_back ((int64_t) g.i.size ());
            }
        }
    }
  if (sparse)
    as_view_csc64 (&g.view, P.n, k, g.p.data (), g.i.data (), g.x.data ());
  else
    as_view_dense (&g.view, P.n, k, g.x.data (), P.n);
  w.check (as_block_finish (&g.view, P.d, &ro, termv.data (), &w.S, &w.c));
  double time = seconds_since (t0);

  // the metrics: G = X X' summed over the pieces, H from the gathered columns
  as_metrics M;
  M.inf = M.rel = M.baseline = M.r = M.eps_spectral = M.bound = NAN;
  double t_err = NAN;
  if (error || spectral)
    {
      auto t1 = std::chrono::steady_clock::now ();
      size_t nn = (size_t) (P.n * P.n);
      std::vector<double> G (nn, 0.0), Gb (nn);
      for (int64_t j0 = 0; j0 < P.d; j0 += piece)
        {
          w.check (as_gram (&rd.read (j0, std::min (j0 + piece, P.d)), -1, nullptr, nullptr,
                            Gb.data (), &w.c));
          for (size_t e = 0; e < nn; e++)
            G[e] += Gb[e];
        }
      as_metrics_options mo;
      as_metrics_options_init (&mo);
      mo.spectral = spectral;
      w.check (as_attention_error_gram (P.n, G.data (), &g.view, w.S.weight, &mo, &M, &w.c));
      if (! error)
        M.inf = M.rel = M.baseline = M.r = NAN;
      t_err = seconds_since (t1);
    }

  // Y = Xs .* weight', built as make_y builds it from X and the sample's columns
  std::vector<int64_t> global (w.S.index, w.S.index + k);
  for (t = 0; t < k; t++)
    w.S.index[t] = t;
  plhs[0] = make_y (w, &g.view);
  std::copy (global.begin (), global.end (), w.S.index);

  w.S.metrics = M;
  w.S.time = time;
  w.S.error_time = t_err;
  w.S.s1 = P.need_lev ? P.s1 : 0;
  w.S.s = P.need_lev ? P.s : 0;
  w.S.s2 = F.s2;
  Fields info;
  result_fields (w, nullptr, info, nlhs, plhs);
  info.add ("chunk", (double) P.chunk);
  if (nlhs > 2)
    plhs[2] = info.make ();
}
