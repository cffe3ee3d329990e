# fairproj: build, check and demo. Run from the repository root.
R       ?= R
RSCRIPT ?= Rscript
PKG     := fairproj
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
LIB     := $(CURDIR)/.lib
# compile the C++ sources in parallel (R CMD build/INSTALL/check run make)
JOBS    := $(shell nproc 2>/dev/null || echo 2)
# TZ: without it, loading recipes' dependencies asks timedatectl, which prints errors on
# machines without systemd (a NOTE in the check). R_RD4PDF: the PDF manual uses R's default
# fonts when the Inconsolata LaTeX package is installed (Debian's 500 Mb texlive-fonts-extra),
# Times and Courier otherwise (texlive-fonts-recommended, which setup installs).
# IGNORE_MISSING_ENHANCES: RSNNS (Enhances, for the "mlp2" classifier) is installed only by
# `make setup-reproduce`, as CRAN does not require enhanced packages either.
CHECK_ENV := TZ=$${TZ:-UTC} _R_CHECK_CRAN_INCOMING_=false _R_CHECK_CRAN_INCOMING_REMOTE_=false \
	_R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false \
	_R_CHECK_PACKAGE_DEPENDS_IGNORE_MISSING_ENHANCES_=true \
	_R_CHECK_COMPILATION_FLAGS_KNOWN_="-Wformat -Werror=format-security -Wdate-time" \
	R_RD4PDF=$$(kpsewhich zi4.sty inconsolata.sty 2>/dev/null | grep -q . && echo times,inconsolata,hyper || echo times,hyper)

.PHONY: setup setup-demo setup-test setup-site setup-reproduce document build install structure test check \
	check-depends-only demo site test-site test-db test-dist test-tidymodels bench reproduce reproduce-quick fuzz sanitize sanitize-install test-sanitizers test-sanitizers-run clean

# What each target needs, installed when missing (tools/setup.sh names the packages).
setup:
	@bash tools/setup.sh build
setup-demo:
	@bash tools/setup.sh demo
setup-test:
	@bash tools/setup.sh test
setup-site:
	@bash tools/setup.sh site
# Reproduction-only extras: RSNNS (a CRAN source build) for the "mlp2" stand-in and Debian's
# python3-sklearn for Kleindessner et al.'s MLP (FAIRPROJ_PYTHON names another interpreter).
# Not needed by `make test`: the tests that use them skip without them.
setup-reproduce:
	@bash tools/setup.sh reproduce

document: setup
	@bash tools/setup.sh document
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise(load_code = "source")'

build: setup-test
	MAKEFLAGS=-j$(JOBS) $(R) CMD build .

install: setup
	mkdir -p $(LIB)
	MAKEFLAGS=-j$(JOBS) $(R) CMD INSTALL --preclean --no-test-load --library=$(LIB) .

# R CMD check --as-cran on the tarball (tests, vignettes, PDF manual), offline; fails on any
# ERROR, WARNING or NOTE and ends with the testthat totals. NOT_CRAN=true: the whole suite, with
# the golden set and the snapshots (check-depends-only runs it under CRAN's settings).
# The tree's own checks, base R only: no circle between R files (tools/layers.R), C++ files and
# functions within their lengths and the unity build's lists complete (tools/cpp-lengths.R), the
# C++ seam kept (tools/cpp-headers.R: Rcpp only at the seam, every header compiles alone), and
# the words about the tree true: cited files exist, the layer picture is complete (tools/docs-check.R).
structure:
	$(RSCRIPT) tools/layers.R --check
	$(RSCRIPT) tools/cpp-lengths.R --check
	$(RSCRIPT) tools/cpp-headers.R --check
	$(RSCRIPT) tools/docs-check.R

test: structure build
	$(CHECK_ENV) NOT_CRAN=true MAKEFLAGS=-j$(JOBS) $(R) CMD check --as-cran $(TARBALL); status=$$?; \
	$(RSCRIPT) tools/check-status.R $(PKG).Rcheck $$status

check: test

# The check CRAN runs without the suggested packages: examples, tests and vignettes see only
# Depends/Imports/LinkingTo (and knitr/rmarkdown to build the vignettes, testthat to run the
# tests) in a private library that R CMD check makes; the recommended packages are hidden too.
# R_ENVIRON: the machine's Renviron.site may add its site libraries back to R_LIBS_SITE, which
# the check empties for its child processes; without it (the libraries named through R_LIBS
# instead) the check sees only the package's strong dependencies, as CRAN's does.
check-depends-only: build
	rm -rf .depends-only && mkdir -p .depends-only
	R_LIBS="$$($(RSCRIPT) -e 'cat(.libPaths(), sep = ":")')" R_ENVIRON=/dev/null \
	$(CHECK_ENV) _R_CHECK_DEPENDS_ONLY_=true _R_CHECK_NO_RECOMMENDED_=true MAKEFLAGS=-j$(JOBS) \
	$(R) CMD check --as-cran --no-manual -o $(CURDIR)/.depends-only $(TARBALL); status=$$?; \
	$(RSCRIPT) tools/check-status.R .depends-only/$(PKG).Rcheck $$status

# The database tests against PostgreSQL (and DuckDB) as well as SQLite, both routes. Installs
# PostgreSQL with its R client (Debian packages) when missing, and duckdb (CRAN, a long source
# build) with FAIRPROJ_DUCKDB=1; the tests start a throw-away PostgreSQL server on 127.0.0.1
# and stop it. Fails, saying why, when the packages cannot be installed or the server cannot
# start (FAIRPROJ_TEST_DB=1 turns the tests' skips into errors; R CMD check skips them).
test-db: install
	@bash tools/setup-db.sh
	NOT_CRAN=true FAIRPROJ_TEST_DB=1 R_LIBS=$(LIB) $(RSCRIPT) -e 'testthat::test_dir("tests/testthat", package = "$(PKG)", load_package = "installed", filter = "moments-db", stop_on_failure = TRUE)'

# Moments of file chunks as jobs of a real scheduler: installs Slurm, munge, batchtools and
# future.batchtools (Debian packages) when missing; the test starts a one-node Slurm cluster on
# 127.0.0.1 (munged, slurmctld, slurmd; needs root), runs the chunks through future.batchtools
# with the package's job template (inst/slurm/slurm.tmpl) and stops the cluster. Fails, saying
# why, when Slurm cannot be installed or the cluster cannot start (FAIRPROJ_TEST_DIST=1).
test-dist: install
	@bash tools/setup-dist.sh
	NOT_CRAN=true FAIRPROJ_TEST_DIST=1 R_LIBS=$(LIB) $(RSCRIPT) -e 'testthat::test_dir("tests/testthat", package = "$(PKG)", load_package = "installed", filter = "moments-dist", stop_on_failure = TRUE)'

# The recipe steps inside a parsnip/workflows model fit (tools/test-workflows.R). parsnip and
# workflows are not fairproj dependencies; they are installed, with the newer tidyverse
# foundations they need, into a private library (.lib-extra) that shadows nothing else.
EXTRA_LIB := $(CURDIR)/.lib-extra
test-tidymodels: install
	mkdir -p $(EXTRA_LIB)
	R_LIBS=$(EXTRA_LIB):$(LIB) $(RSCRIPT) -e 'p <- c("parsnip", "workflows"); m <- p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)]; if (length(m)) install.packages(m, lib = "$(EXTRA_LIB)", Ncpus = 2)'
	TZ=$${TZ:-UTC} R_LIBS=$(EXTRA_LIB):$(LIB) $(RSCRIPT) tools/test-workflows.R

demo: install setup-demo
	R_LIBS=$(LIB) $(RSCRIPT) tools/demo.R demo-output

# The pkgdown site in docs/ (offline: pkgdown.internet = FALSE), from the installed package.
site: install setup-site
	R_LIBS=$(LIB) TZ=$${TZ:-UTC} $(RSCRIPT) tools/site.R docs

# Opens the built site in headless Chromium: headings, images, console errors, styles, and
# screenshots in docs-screenshots/.
test-site: site
	R_LIBS=$(LIB) $(RSCRIPT) tools/test-site.R docs docs-screenshots

bench: install
	@for f in bench/*.R; do echo "== $$f"; R_LIBS=$(LIB) $(RSCRIPT) $$f || exit 1; done

# the property generator of tests/testthat/helper-fuzz.R on many cases (FUZZ_CASES, default 5000)
FUZZ_CASES ?= 5000
fuzz: install
	R_LIBS=$(LIB) $(RSCRIPT) tools/fuzz.R $(FUZZ_CASES)

reproduce: install setup-reproduce
	@for f in inst/reproduce/*.R; do case $$f in */quick.R) continue;; esac; \
		echo "== $$f"; R_LIBS=$(LIB) $(RSCRIPT) $$f || exit 1; done

# Quick mode of every script that stores results (inst/reproduce/quick.R): a small stated subset
# of each stored file regenerated in a temporary folder and compared with the stored rows (about
# 10 minutes of CPU; needs FAIRPROJ_DATA). From a clean checkout it also writes
# inst/reproduce/results/provenance.csv. QUICK_FILES: a regular expression selecting files.
reproduce-quick: install
	R_LIBS=$(LIB) $(RSCRIPT) inst/reproduce/quick.R '$(QUICK_FILES)'

# Build with -fsanitize=address,undefined (tools/sanitize.mk) in a copy of the sources
# (.sanitize/; only changed files are copied, so object files are reused between runs) into a
# separate library (sanitize-install), then run every C++ entry point through the public API on
# small normal, degenerate and extreme-scale inputs (tools/sanitize.R) with libasan preloaded
# into R. Not part of `make test`. Reports go to stderr; the target fails when a sanitizer
# reports anything.
SAN_DIR := $(CURDIR)/.sanitize
SAN_LIB := $(SAN_DIR)/lib
SAN_OPT := -O0
# As CRAN's gcc-ASAN check runs: leaks are not reported (detect_leaks=0); every report is
# printed and the run goes on (halt_on_error=0 with -fsanitize-recover=address), so that one
# run lists them all.
SAN_ENV := LD_PRELOAD=$$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0:halt_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1 R_LIBS=$(SAN_LIB)
SAN_FOUND := grep -q "ERROR: AddressSanitizer\|runtime error:"
sanitize-install: setup
	mkdir -p $(SAN_DIR)/src/$(PKG) $(SAN_LIB)
	rm -rf $(SAN_LIB)/00LOCK-$(PKG)
	rm -rf $(SAN_DIR)/stage && mkdir -p $(SAN_DIR)/stage
	tar -cf - --exclude='*.o' --exclude='*.so' DESCRIPTION NAMESPACE R src inst man | tar -C $(SAN_DIR)/stage -xf -
	cd $(SAN_DIR)/stage && find . -type f | while read f; do \
		cmp -s "$$f" "../src/$(PKG)/$$f" || { mkdir -p "$$(dirname "../src/$(PKG)/$$f")"; cp "$$f" "../src/$(PKG)/$$f"; }; done
	SAN_OPT='$(SAN_OPT)' R_MAKEVARS_USER=$(CURDIR)/tools/sanitize.mk MAKEFLAGS=-j$(JOBS) $(R) CMD INSTALL --no-test-load \
		--library=$(SAN_LIB) $(SAN_DIR)/src/$(PKG)

sanitize: sanitize-install
	$(SAN_ENV) $(RSCRIPT) tools/sanitize.R 2> $(SAN_DIR)/report.txt; \
		status=$$?; awk '/^## /{last=$$0; next} {if (!(last in shown)) {shown[last]=1; print last}; print}' \
		$(SAN_DIR)/report.txt >&2; \
		if $(SAN_FOUND) $(SAN_DIR)/report.txt; then \
		echo "sanitize: findings above (full report in .sanitize/report.txt)"; exit 1; fi; exit $$status

# The test suite under the sanitizers, as CRAN's gcc-ASAN check runs it: the package built as for
# `make sanitize` but with -O1 (the suite runs Eigen's kernels on real sizes, which -O0 makes
# some twenty times slower) into its own copy (.sanitize-tests/), the tests run with CRAN's
# settings (NOT_CRAN unset: skip_on_cran() tests skip) in a plain R with libasan preloaded,
# leaks not reported (CRAN: detect_leaks=0). Fails on any sanitizer report (printed, with the
# test file it came from, from .sanitize-tests/tests.txt) or test failure. .ci/run runs it.
test-sanitizers: setup-test
	$(MAKE) sanitize-install SAN_DIR=$(CURDIR)/.sanitize-tests SAN_OPT=-O1
	$(MAKE) test-sanitizers-run SAN_DIR=$(CURDIR)/.sanitize-tests

test-sanitizers-run:
	env -u NOT_CRAN $(SAN_ENV) $(RSCRIPT) tools/test-sanitizers.R tests/testthat 2> $(SAN_DIR)/tests.txt; status=$$?; \
		if $(SAN_FOUND) $(SAN_DIR)/tests.txt; then \
		grep -B2 -A30 "ERROR: AddressSanitizer\|runtime error:" $(SAN_DIR)/tests.txt >&2; \
		echo "in test files:" >&2; awk '/^## /{f=$$0} /ERROR: AddressSanitizer|runtime error:/{print f}' \
		$(SAN_DIR)/tests.txt | sort -u >&2; \
		echo "test-sanitizers: sanitizer reports above (full output in $(SAN_DIR)/tests.txt)"; exit 1; fi; \
		echo "test-sanitizers: no sanitizer report"; exit $$status

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz $(LIB) $(EXTRA_LIB) $(SAN_DIR) .sanitize-tests demo-output .depends-only docs \
		docs-screenshots src/*.o src/*.so
