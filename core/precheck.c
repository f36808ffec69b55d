/* precheck.c: the traps of an input, found before any pass (X transposed, logits too large or too small). */
/* From its shape and the largest diagonal of X X' (one pass over the stored entries, no X X'): X
   given transposed, logits so large that the attention's relative error overflows, or so small that
   Y = 0 (no column) already meets the target. */
#include "as_internal.h"
#include "precheck.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The relative attention error of any Y with logits within [-g, g] is below exp(2 g) - 1; past
   2 g = log(DBL_MAX) it is not representable and Att(X) has entries below DBL_MIN. */
#define AS_LOGIT_OVERFLOW 709.78

/* The stored entries' rows and squares, by row. */
typedef struct pc_entry { int64_t row; double v2; } pc_entry;

static int pc_cmp(const void *pa, const void *pb)
{
    const pc_entry *a = pa, *b = pb;
    return a->row < b->row ? -1 : (a->row > b->row);
}

/* max_i (X X')_ii: a sum per row, or, when X stores fewer entries than it has rows (a sparse X
   of billions of rows), over its stored entries sorted by row: memory in the stored entries. */
static int pc_gmax(const as_matrix *X, double *g, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol, j, nnz = 0, t = 0;
    *g = 0;
    for (j = 0; j < d; j++) nnz += as_col_nnz(X, j);
    if (nnz < n) {
        pc_entry *e = as_malloc(c, (size_t)(nnz > 0 ? nnz : 1), sizeof(pc_entry));
        double s = 0;
        if (e == NULL) return c->status;
        for (j = 0; j < d; j++) AS_FOR_COL(X, j, row, v, { e[t].row = row; e[t].v2 = v * v; t++; });
        qsort(e, (size_t)nnz, sizeof *e, pc_cmp);
        for (t = 0; t < nnz; t++) {
            s = t > 0 && e[t].row == e[t - 1].row ? s + e[t].v2 : e[t].v2;
            if (s > *g) *g = s;
        }
        as_free(c, e);
    } else {
        double *rs = (double *)as_calloc(c, (size_t)n, sizeof(double));
        if (rs == NULL) return c->status;
        for (j = 0; j < d; j++) AS_FOR_COL(X, j, row, v, { rs[row] += v * v; });
        for (j = 0; j < n; j++) if (rs[j] > *g) *g = rs[j];
        as_free(c, rs);
    }
    return AS_OK;
}

void as_precheck_shape(int64_t n, int64_t d, as_precheck_out *out)
{
    memset(out, 0, sizeof(*out));
    out->scale = 1;
    if (n > d && n >= AS_PRECHECK_ROWS) {
        out->flags |= AS_PRECHECK_TRANSPOSED;
        snprintf(out->transposed, sizeof(out->transposed),
                 "X has more rows (%lld) than columns (%lld): attsparse keeps columns (features) of a wide X, "
                 "one row per sample; if the rows are features (a Bioconductor assay), give t(X) in R, X' in Octave",
                 (long long)n, (long long)d);
    }
}

int as_precheck(const as_matrix *X, double rel_target, as_precheck_out *out, as_common *c)
{
    int64_t n = X->nrow, d = X->ncol;
    double g = 0;
    as_precheck_shape(n, d, out);
    if (n <= 0 || d <= 0) return AS_OK;
    if (pc_gmax(X, &g, c) != AS_OK) return c->status;
    out->gmax = g;
    out->scale = g > 0 ? sqrt(1 / g) : 1;
    if (!isfinite(g)) {
        out->flags |= AS_PRECHECK_OVERFLOW;
        out->scale = 0;
        snprintf(out->scale_note, sizeof(out->scale_note),
                 "the squared norms of X's rows overflow: the logits are infinite; divide X by its largest "
                 "absolute entry first, then attsparse_prepare (max (X X')_ii = 1)");
    } else if (2 * g > AS_LOGIT_OVERFLOW) {
        out->flags |= AS_PRECHECK_OVERFLOW;
        snprintf(out->scale_note, sizeof(out->scale_note),
                 "max (X X')_ii = %.4g: the logits reach %.4g, the attention of X is that of its largest logit "
                 "per row and the relative error overflows; scale X by %.4g (attsparse_prepare: max (X X')_ii = 1)",
                 g, g, out->scale);
    } else if (isfinite(rel_target) && g > 0 && expm1(2 * g) <= rel_target) {
        out->flags |= AS_PRECHECK_TRIVIAL;
        snprintf(out->scale_note, sizeof(out->scale_note),
                 "max (X X')_ii = %.4g: every logit is within [-%.4g, %.4g], so Y = 0 (no column) already has "
                 "rel error <= exp(2 * %.4g) - 1 = %.4g, within the target %.4g; scale X by %.4g "
                 "(attsparse_prepare: max (X X')_ii = 1)", g, g, g, g, expm1(2 * g), rel_target, out->scale);
    }
    return AS_OK;
}
