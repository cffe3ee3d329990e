# make site: the pkgdown site (_pkgdown.yml) of the installed package, built offline into the
# folder given as argument (default docs/). Examples and vignettes run against the installed
# package (R_LIBS), so nothing is compiled again.
args <- commandArgs(trailingOnly = TRUE)
dest <- if (length(args)) args[1] else "docs"
options(pkgdown.internet = FALSE)
# downlit links a package named in code (library(sparklyr), arrow::open_dataset()) to its home
# page: from its DESCRIPTION when it is installed, otherwise from CRAN's package list, which it
# downloads whatever pkgdown.internet says, and fails offline. Here a package that is not
# installed gets no link, so the site is the same with or without a network.
utils::assignInNamespace("CRAN_urls", function() data.frame(Package = character(), URL = character()),
                         ns = "downlit")
pkgdown::build_site(".", override = list(destination = dest), devel = FALSE, install = FALSE,
                    new_process = FALSE, preview = FALSE)
