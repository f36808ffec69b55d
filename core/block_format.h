/* block_format.h: the flat layouts of a block run's tasks and partials (block_part.c makes and feeds the partials, block_run.c makes the tasks and merges the partials). */
#ifndef AS_BLOCK_FORMAT_H
#define AS_BLOCK_FORMAT_H
#include "as_internal.h"

#define AS_TASK_MAGIC 0x31304b5341545341ULL   /* "ASTASK01" */
#define AS_PART_MAGIC 0x3130545241505341ULL   /* "ASPART01" */

/* What a pass does per block (the flags of its task and of its partials). */
enum { AS_PF_SKETCH = 1,    /* the sketch leaf of each chunk                 */
       AS_PF_LEV = 2,       /* the leverage score of each column (from N')   */
       AS_PF_NRM = 4,       /* the squared norm of each column               */
       AS_PF_GRAM = 8,      /* the Gram X X' of each chunk                   */
       AS_PF_GATHER = 16,   /* the chosen columns, kept                      */
       AS_PF_WHOLE = 32,    /* every column, kept (X no wider than a sketch) */
       AS_PF_ROWSQ = 64 };  /* the rows' squared norms of each chunk (the
                               diagonal of X X', for the error estimate)     */
#define AS_PF_PASSES 3

/* A task: this head, then `count` block records, N' (LEV) and the chosen
   columns (GATHER), each at an offset that is a multiple of 8. */
typedef struct as_task_head {
    uint64_t magic, run;
    int64_t  bytes, flags, pass, count;
    int64_t  n, d, chunk, s1, s;
    uint64_t seed;
    int64_t  q, qs, threads;   /* N' is q x n with leading dimension qs     */
    int64_t  rec_off, nt_off, sel_off, nsel;
} as_task_head;

/* Block t of a task: its number in the pass, its columns j0 .. j1-1, and
   (GATHER) the chosen ones sel[sa .. sb). */
typedef struct as_blk_rec { int64_t number, j0, j1, sa, sb; } as_blk_rec;

/* A partial: this head, then the hashes of its columns (uint32), then by
   flags the leaves, scores, norms and Grams, or (GATHER, WHOLE) from data_off
   the columns: dense n x ncols, or CSC pointers (ncols + 1) then nnz pairs. */
typedef struct as_part_head {
    uint64_t magic, run;
    int64_t  used, cap;        /* bytes in use and allocated               */
    int64_t  flags, pass, number, j0, j1, sa, sb;
    int64_t  n, s1, chunk, nch, ncols;
    int64_t  fed;              /* columns fed (or gathered) so far         */
    int64_t  kind;             /* -1 nothing read, 0 dense, 1 CSC          */
    int64_t  nnz, data_off;
    int64_t  status;           /* AS_OK, or the error of the block's work  */
    char     msg[512];
} as_part_head;

typedef struct as_csc_entry { int64_t row; double x; } as_csc_entry;
/* Where the arrays of a partial start (its head says its pass and sizes). */
typedef struct as_part_layout { size_t hash, leaf, lev, nrm, gram, rowsq, data; } as_part_layout;

static inline size_t as_align8(size_t b)
{
    return (b + 7) & ~(size_t)7;
}

static inline const as_blk_rec *as_task_recs(const as_task_head *T)
{
    return (const as_blk_rec *)((const unsigned char *)T + T->rec_off);
}

static inline const int64_t *as_task_sel(const as_task_head *T)
{
    return (const int64_t *)((const unsigned char *)T + T->sel_off);
}

/* The layout of a partial from its head; returns the bytes before its kept columns. */
size_t as_part_layout_of(const as_part_head *h, as_part_layout *L);
/* The partial of block t of task T, zeroed (as_free it). */
int as_part_begin(const as_task_head *T, int64_t t, as_part_head **out, as_common *c);
/* Feed X to the partial: X's column t is column cols[t] (a gather) or j0 + t,
   the columns in order; the block's own errors go into the partial (AS_OK),
   a lack of memory or an interrupt is returned. The partial may move. */
int as_part_feed(const as_task_head *T, as_part_head **PP, const as_matrix *Xin, int64_t j0,
                 const int64_t *cols, as_common *c);

#endif
