/* lapack.h: the core's own prototypes of the BLAS and LAPACK routines it calls (Fortran, LP64, hidden string lengths explicit). */
#ifndef AS_LAPACK_H
#define AS_LAPACK_H

#include <stddef.h>

/* Sizes handed to LAPACK must fit its 32-bit integers. */
#define AS_INT_MAX 2147483647LL

/* BLAS/LAPACK (Fortran, LP64) with the hidden string lengths made explicit. */
typedef size_t as_fclen;
void dgeqp3_(const int *m, const int *n, double *a, const int *lda, int *jpvt,
             double *tau, double *work, const int *lwork, int *info);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
            const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, double *b, const int *ldb,
            as_fclen, as_fclen, as_fclen, as_fclen);
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *beta,
            double *c, const int *ldc, as_fclen, as_fclen);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a, const int *lda,
            const double *b, const int *ldb, const double *beta, double *c,
            const int *ldc, as_fclen, as_fclen);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, as_fclen);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, as_fclen);
void dpotri_(const char *uplo, const int *n, double *a, const int *lda, int *info, as_fclen);
void dtrtri_(const char *uplo, const char *diag, const int *n, double *a, const int *lda, int *info,
             as_fclen, as_fclen);
void dlauum_(const char *uplo, const int *n, double *a, const int *lda, int *info, as_fclen);
void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag,
            const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, double *b, const int *ldb,
            as_fclen, as_fclen, as_fclen, as_fclen);
void dpocon_(const char *uplo, const int *n, const double *a, const int *lda,
             const double *anorm, double *rcond, double *work, int *iwork, int *info, as_fclen);
double dlansy_(const char *norm, const char *uplo, const int *n, const double *a,
               const int *lda, double *work, as_fclen, as_fclen);
void dsygst_(const int *itype, const char *uplo, const int *n, double *a, const int *lda,
             const double *b, const int *ldb, int *info, as_fclen);
void dsyevr_(const char *jobz, const char *range, const char *uplo, const int *n,
             double *a, const int *lda, const double *vl, const double *vu,
             const int *il, const int *iu, const double *abstol, int *m, double *w,
             double *z, const int *ldz, int *isuppz, double *work, const int *lwork,
             int *iwork, const int *liwork, int *info, as_fclen, as_fclen, as_fclen);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info, as_fclen, as_fclen);

/* The building blocks of the interruptible drivers (linalg.c). */
int ilaenv_(const int *ispec, const char *name, const char *opts, const int *n1, const int *n2,
            const int *n3, const int *n4, as_fclen, as_fclen);
double dlamch_(const char *cmach, as_fclen);
double dnrm2_(const int *n, const double *x, const int *incx);
void dscal_(const int *n, const double *a, double *x, const int *incx);
void dlascl_(const char *type, const int *kl, const int *ku, const double *cfrom, const double *cto,
             const int *m, const int *n, double *a, const int *lda, int *info, as_fclen);
void dlaqps_(const int *m, const int *n, const int *offset, const int *nb, int *kb, double *a,
             const int *lda, int *jpvt, double *tau, double *vn1, double *vn2, double *auxv,
             double *f, const int *ldf);
void dlaqp2_(const int *m, const int *n, const int *offset, double *a, const int *lda, int *jpvt,
             double *tau, double *vn1, double *vn2, double *work);
void dlatrd_(const char *uplo, const int *n, const int *nb, double *a, const int *lda, double *e,
             double *tau, double *w, const int *ldw, as_fclen);
void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
             const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
             double *c, const int *ldc, as_fclen, as_fclen);
void dsytd2_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e,
             double *tau, int *info, as_fclen);
void dsterf_(const int *n, double *d, double *e, int *info);
void dstedc_(const char *compz, const int *n, double *d, double *e, double *z, const int *ldz,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info, as_fclen);
/* dormtr writes into a while it runs (it restores it) */
void dormtr_(const char *side, const char *uplo, const char *trans, const int *m, const int *n,
             double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info, as_fclen, as_fclen, as_fclen);

#endif
