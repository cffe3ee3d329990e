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
# machines without systemd (a NOTE in the check)
CHECK_ENV := TZ=$${TZ:-UTC} _R_CHECK_CRAN_INCOMING_=false _R_CHECK_CRAN_INCOMING_REMOTE_=false \
	_R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false \
	_R_CHECK_COMPILATION_FLAGS_KNOWN_="-Wformat -Werror=format-security -Wdate-time"

.PHONY: setup setup-reproduce document build install test test-db test-dist test-tidymodels check demo bench reproduce fuzz sanitize clean

setup:
	@bash tools/setup.sh

document: setup
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise(load_code = "source")'

build: setup
	MAKEFLAGS=-j$(JOBS) $(R) CMD build .

install: setup
	mkdir -p $(LIB)
	MAKEFLAGS=-j$(JOBS) $(R) CMD INSTALL --preclean --no-test-load --library=$(LIB) .

# R CMD check --as-cran on the tarball (tests and vignettes), offline; fails on any
# ERROR, WARNING or NOTE and ends with the testthat totals.
test: build
	$(CHECK_ENV) MAKEFLAGS=-j$(JOBS) $(R) CMD check --as-cran --no-manual $(TARBALL); status=$$?; \
	$(RSCRIPT) tools/check-status.R $(PKG).Rcheck $$status

check: test

# The database tests against PostgreSQL (and DuckDB) as well as SQLite, both routes. Installs
# PostgreSQL with its R client (Debian packages) when missing, and duckdb (CRAN, a long source
# build) with FAIRPROJ_DUCKDB=1; the tests start a throw-away PostgreSQL server on 127.0.0.1
# and stop it.
test-db: install
	@bash tools/setup-db.sh
	R_LIBS=$(LIB) $(RSCRIPT) -e 'testthat::test_dir("tests/testthat", package = "$(PKG)", load_package = "installed", filter = "moments-db", stop_on_failure = TRUE)'

# Moments of file chunks as jobs of a real scheduler: installs Slurm, munge, batchtools and
# future.batchtools (Debian packages) when missing; the test starts a one-node Slurm cluster on
# 127.0.0.1 (munged, slurmctld, slurmd; needs root), runs the chunks through future.batchtools
# and stops the cluster.
test-dist: install
	@bash tools/setup-dist.sh
	FAIRPROJ_TEST_DIST=1 R_LIBS=$(LIB) $(RSCRIPT) -e 'testthat::test_dir("tests/testthat", package = "$(PKG)", load_package = "installed", filter = "moments-dist", stop_on_failure = TRUE)'

# The recipe steps inside a parsnip/workflows model fit (tools/test-workflows.R). parsnip and
# workflows are not fairproj dependencies; they are installed, with the newer tidyverse
# foundations they need, into a private library (.lib-extra) that shadows nothing else.
EXTRA_LIB := $(CURDIR)/.lib-extra
test-tidymodels: install
	mkdir -p $(EXTRA_LIB)
	R_LIBS=$(EXTRA_LIB):$(LIB) $(RSCRIPT) -e 'p <- c("parsnip", "workflows"); m <- p[!vapply(p, requireNamespace, logical(1), quietly = TRUE)]; if (length(m)) install.packages(m, lib = "$(EXTRA_LIB)", Ncpus = 2)'
	TZ=$${TZ:-UTC} R_LIBS=$(EXTRA_LIB):$(LIB) $(RSCRIPT) tools/test-workflows.R

demo: install
	R_LIBS=$(LIB) $(RSCRIPT) tools/demo.R demo-output

bench: install
	@for f in bench/*.R; do echo "== $$f"; R_LIBS=$(LIB) $(RSCRIPT) $$f || exit 1; done

# the property generator of tests/testthat/helper-fuzz.R on many cases (FUZZ_CASES, default 5000)
FUZZ_CASES ?= 5000
fuzz: install
	R_LIBS=$(LIB) $(RSCRIPT) tools/fuzz.R $(FUZZ_CASES)

# The full protocols also run scikit-learn's MLP (Kleindessner et al.'s table) through Python:
# Debian's python3-sklearn, installed here when no python3 imports sklearn (FAIRPROJ_PYTHON
# names another interpreter). Not needed by `make test`.
setup-reproduce:
	@if [ -n "$$FAIRPROJ_PYTHON" ] || python3 -c 'import sklearn' 2>/dev/null || /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then \
	  echo "setup-reproduce: scikit-learn found"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=""; [ "$$(id -u)" = "0" ] || SUDO=sudo; \
	  $$SUDO apt-get install -y -qq --no-install-recommends python3-sklearn || echo "setup-reproduce: could not install python3-sklearn"; \
	else echo "setup-reproduce: no scikit-learn; the MLP columns of kleindessner-adult will not be computed"; fi

reproduce: install setup-reproduce
	@for f in inst/reproduce/*.R; do echo "== $$f"; R_LIBS=$(LIB) $(RSCRIPT) $$f || exit 1; done

# Build with -fsanitize=address,undefined (tools/sanitize.mk) in a copy of the sources
# (.sanitize/; only changed files are copied, so object files are reused between runs) into a
# separate library, then run every C++
# entry point through the public API on small normal, degenerate and extreme-scale inputs
# (tools/sanitize.R) with libasan preloaded into R. Not part of `make test`. Reports go to
# stderr; the target fails when a sanitizer reports anything.
SAN_DIR := $(CURDIR)/.sanitize
SAN_LIB := $(SAN_DIR)/lib
sanitize: setup
	mkdir -p $(SAN_DIR)/src/$(PKG) $(SAN_LIB)
	rm -rf $(SAN_LIB)/00LOCK-$(PKG)
	rm -rf $(SAN_DIR)/stage && mkdir -p $(SAN_DIR)/stage
	tar -cf - --exclude='*.o' --exclude='*.so' DESCRIPTION NAMESPACE R src inst | tar -C $(SAN_DIR)/stage -xf -
	cd $(SAN_DIR)/stage && find . -type f | while read f; do \
		cmp -s "$$f" "../src/$(PKG)/$$f" || { mkdir -p "$$(dirname "../src/$(PKG)/$$f")"; cp "$$f" "../src/$(PKG)/$$f"; }; done
	R_MAKEVARS_USER=$(CURDIR)/tools/sanitize.mk MAKEFLAGS=-j$(JOBS) $(R) CMD INSTALL --no-test-load \
		--library=$(SAN_LIB) $(SAN_DIR)/src/$(PKG)
	LD_PRELOAD=$$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0:halt_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1 R_LIBS=$(SAN_LIB) $(RSCRIPT) tools/sanitize.R 2> $(SAN_DIR)/report.txt; \
		status=$$?; awk '/^## /{last=$$0; next} {if (!(last in shown)) {shown[last]=1; print last}; print}' \
		$(SAN_DIR)/report.txt >&2; \
		if grep -q "ERROR: AddressSanitizer\|runtime error:" $(SAN_DIR)/report.txt; then \
		echo "sanitize: findings above (full report in .sanitize/report.txt)"; exit 1; fi; exit $$status

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz $(LIB) $(EXTRA_LIB) $(SAN_DIR) demo-output src/*.o src/*.so
