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

.PHONY: setup document build install test check demo bench reproduce clean

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

demo: install
	R_LIBS=$(LIB) $(RSCRIPT) tools/demo.R demo-output

bench: install
	@for f in bench/*.R; do echo "== $$f"; R_LIBS=$(LIB) $(RSCRIPT) $$f || exit 1; done

reproduce: install
	@for f in inst/reproduce/*.R; do echo "== $$f"; R_LIBS=$(LIB) $(RSCRIPT) $$f || exit 1; done

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz $(LIB) demo-output src/*.o src/*.so
