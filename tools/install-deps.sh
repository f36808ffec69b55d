#!/usr/bin/env bash
# install-deps.sh: install the Debian packages a make target needs, saying what it installs.
# Usage: tools/install-deps.sh GROUP...   (GROUP: build, r, octave, data, docs, bench, sanitize, tex)
set -euo pipefail

want=()
for group in "$@"; do
  case "$group" in
    # libopenblas0-pthread: an optimized BLAS/LAPACK behind the same libblas.so.3/liblapack.so.3 (Debian alternatives)
    build)    want+=(gcc gfortran make liblapack-dev libblas-dev libopenblas0-pthread) ;;
    r)        want+=(r-base-core r-base-dev r-cran-matrix r-cran-testthat r-bioc-delayedarray r-bioc-hdf5array r-bioc-biocparallel
               r-bioc-singlecellexperiment r-cran-generics) ;;
    octave)   want+=(octave liboctave-dev gnuplot-nox fonts-freefont-otf ghostscript) ;;
    # real data of the demo: ALL, acq and crude (tm), golub (multtest), lung (metagenomeSeq's 16S counts)
    data)     want+=(r-bioc-all r-cran-tm r-bioc-multtest r-bioc-metagenomeseq r-bioc-bladderbatch r-bioc-dirichletmultinomial) ;;
    docs)     want+=(r-cran-knitr r-cran-rmarkdown pandoc) ;;
    bench)    want+=(r-cran-bench r-cran-janeaustenr r-cran-pls r-cran-vegan python3-sklearn time) ;;
    sanitize) want+=(clang libclang-rt-14-dev valgrind) ;;
    # R CMD check --as-cran: the PDF manual (pdflatex, fonts, texi2dvi), HTML validation, PDF compaction,
    # checkbashisms (devscripts) for the configure and cleanup scripts
    tex)      want+=(texlive-latex-base texlive-fonts-recommended texlive-fonts-extra texlive-latex-extra texinfo tidy qpdf devscripts) ;;
    *) echo "install-deps: unknown group '$group'" >&2; exit 2 ;;
  esac
done

missing=()
for pkg in "${want[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  case "$status" in *"install ok installed"*) ;; *) missing+=("$pkg") ;; esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-deps: need root and apt-get to install them; install by hand: apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# refresh the package lists once per machine and hour
stamp=/var/lib/apt/lists/partial/.attsparse-update
if [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +60 2>/dev/null)" ]; then
  apt-get update -q >/dev/null && touch "$stamp"
fi
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
