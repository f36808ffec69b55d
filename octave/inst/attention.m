## Copyright (C) 2026 attsparse developers.  SPDX-License-Identifier: MIT
## attention.m: exact softmax attention D^-1 exp(Q K') V for Octave.

## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} attention (@var{Q})
## @deftypefnx {} {@var{A} =} attention (@var{Q}, @var{K})
## @deftypefnx {} {@var{out} =} attention (@var{Q}, @var{K}, @var{V})
## @deftypefnx {} {@dots{} =} attention (@dots{}, "threads", @var{t})
## Exact softmax attention of queries @var{Q} and keys @var{K}.
##
## @var{Q} is @var{n1}-by-@var{d}, @var{K} @var{n2}-by-@var{d} (default: @var{Q}), each
## full or sparse.  @var{A} is the @var{n1}-by-@var{n2} row-softmax of
## @code{@var{Q}*@var{K}'}, @code{D^-1 exp (@var{Q}*@var{K}')} with
## @code{D = diag (exp (@var{Q}*@var{K}') * ones (@var{n2}, 1))}, evaluated with each
## row's maximum subtracted (no overflow for large logits).  With values @var{V}
## (@var{n2}-by-@var{dv}, full or sparse; a row vector of @var{n2} values is one
## column) the result is @code{D^-1 exp (@var{Q}*@var{K}') @var{V}}
## (@var{n1}-by-@var{dv}), computed a block of rows at a time: no
## @var{n1}-by-@var{n2} matrix is kept.  @code{attention (@var{X})} is
## @code{sym_attention (@var{X})}.  Option @qcode{"memory"}: the cap in MiB on the
## result (default 0: 3/4 of the memory the process may use); a larger result
## is refused before it is allocated, with error @code{attsparse:tooBig}.
##
## To sparsify @var{Q} and @var{K} together and see what that does to the attention,
## use @code{attsparse_rand (@var{Q}, "K", @var{K}, "V", @var{V})} or @code{attsparse_det}.
##
## @example
## @group
## Q = attsparse_example (20, 3000, 0.5, 1);
## K = attsparse_example (30, 3000, 0.5, 2);
## V = randn (30, 4);
## out = attention (Q, K, V);
## [Y, err, info] = attsparse_rand (Q, "K", K, "V", V, "seed", 1);
## [info.rel_error, info.bound, info.out_error]
## @end group
## @end example
## @seealso{attsparse_rand, attsparse_det, sym_attention}
## @end deftypefn

function out = attention (Q, K, V, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  ## {} : not given (K is Q, no V); {value}: given, even when empty (the core says what is wrong);
  ## a string where K or V would be starts the options (attention (Q, "threads", 2))
  args = {};
  if (nargin >= 2)
    args{end+1} = K;
  endif
  if (nargin >= 3)
    args{end+1} = V;
  endif
  nmat = find ([cellfun(@ischar, args), true], 1) - 1;
  Kc = cellfun (@double_input, args(1:min (nmat, 1)), "UniformOutput", false);
  Vc = cellfun (@double_input, args(2:nmat), "UniformOutput", false);
  opts = [args(nmat+1:end), varargin];
  out = __attsparse__ ("attention_qkv", double_input (Q), Kc, Vc, opts{:});
endfunction

%!function A = plain (Q, K)
%!  L = full (Q * K');
%!  E = exp (L - max (L, [], 2));
%!  A = E ./ sum (E, 2);
%!endfunction

%!test
%! randn ("state", 1);
%! Q = randn (7, 40) / 4;  K = randn (9, 40) / 4;  V = randn (9, 3);
%! assert (attention (Q, K), plain (Q, K), 1e-13);
%! assert (attention (Q, K, V), plain (Q, K) * V, 1e-13);
%! assert (attention (sparse (Q .* (abs (Q) > 0.1)), K, V),
%!         plain (Q .* (abs (Q) > 0.1), K) * V, 1e-13);
%! assert (attention (Q), sym_attention (Q), 1e-14);
%! assert (sum (attention (Q, K), 2), ones (7, 1), 1e-14);
%! assert (all (isfinite (attention (40 * Q, 40 * K, V)(:))));
%!error <K must have as many columns as Q> attention (ones (2, 3), ones (2, 4))
%!error <V must have as many rows as K> attention (ones (2, 3), ones (4, 3), ones (3, 1))
%!error <attention: V holds a NaN or infinite value \(row 1, column 1\)> attention (ones (2, 3), ones (4, 3), NaN (4, 1))
%!assert (attention (ones (2, 3), "threads", 1), attention (ones (2, 3)))
%!assert (attention (ones (2, 3), ones (4, 3), "threads", 1), attention (ones (2, 3), ones (4, 3)))
%!error <attention: the result Att\(Q, K\) \(n1 x n2 doubles, n1 = nrow\(Q\) = 2, n2 = nrow\(K\) = 4\): 6.104e-05 MiB, above 'memory' = 1e-05 MiB> attention (ones (2, 3), ones (4, 3), "memory", 1e-5)
