# Checks that the words about the tree match the tree. Base R only; runs no package code.
#
#   Rscript tools/docs-check.R      lists the findings; exits 1 when there is one
#
# 1. Every file of the project cited in a comment (R/, src/, tests/, tools/, bench/, the Makefile,
#    .ci/run) or anywhere in CONTRIBUTING.md exists. A citation is a path that starts with one of
#    the project's folders (`R/pca-minmax.R`, `src/linalg.h`, `tests/testthat/helper-golden.R`);
#    templates (`R/pca-<name>.R`, `src/minmax_*.h`) are not citations.
# 2. CONTRIBUTING.md's layer picture names every R file that `tools/layers.R` places, in the layer
#    it places it, and no other.
# 3. Every fair PCA method file `R/pca-<name>.R` has its help topic `fair_pca_<name>` (an alias in
#    man/) and its test file `tests/testthat/test-pca-<name>.R`, as CONTRIBUTING.md promises.
# 4. The named tolerances are what their comments say, tolerances used in more than one place:
#    each constant of src/tolerances.h appears (as `fp::tol::<name>`, outside comments) at least
#    twice in the other files of src/, and each `fp_tol_<name>` of R/validate.R in at least two
#    files of R/ besides its definition.

args <- commandArgs(TRUE)
root <- if (file.exists("DESCRIPTION")) "." else file.path(dirname(sub("^--file=", "", grep("^--file=",
  commandArgs(FALSE), value = TRUE)[1])), "..")
findings <- character(0)
found <- function(...) findings <<- c(findings, sprintf(...))

# The comment part of each line of a source file (R, shell and make: `#`; C++: `//` and `/* */`).
comment_text <- function(path) {
  lines <- readLines(path, warn = FALSE)
  if (grepl("\\.(cpp|h)$", path)) {
    txt <- paste(lines, collapse = "\n")
    blocks <- regmatches(txt, gregexpr("/\\*.*?\\*/", txt))[[1]]
    line_comments <- sub("^.*?//", "", grep("//", lines, value = TRUE, fixed = TRUE))
    return(c(line_comments, blocks))
  }
  has <- grepl("#", lines, fixed = TRUE)
  sub("^[^#]*#", "", lines[has])
}

folders <- "(R|src|tests|tools|bench|inst|vignettes|man|pkgdown|\\.ci)"
cited_paths <- function(text) {
  hits <- regmatches(text, gregexpr(paste0("(?<![A-Za-z0-9_./-])", folders,
                                           "/[A-Za-z0-9_.<>*{}/-]*[A-Za-z0-9_]"), text, perl = TRUE))
  hits <- unique(unlist(hits))
  # templates, and folders named without a file, are not citations of one file
  hits[!grepl("[<>*{}]", hits) & grepl("\\.[A-Za-z]+$", hits)]
}

sources <- c(list.files(file.path(root, c("R", "src", "tests/testthat", "tools", "bench")),
                        "\\.(R|cpp|h|sh|mk)$", full.names = TRUE),
             file.path(root, c("Makefile", ".ci/run")))
sources <- sources[file.exists(sources) & basename(sources) != "RcppExports.R" &
                   basename(sources) != "RcppExports.cpp"]
for (f in sources) {
  for (p in cited_paths(comment_text(f))) {
    if (!file.exists(file.path(root, p))) found("%s cites %s, which does not exist", sub("^\\./", "", f), p)
  }
}
contributing <- readLines(file.path(root, "CONTRIBUTING.md"), warn = FALSE)
for (p in cited_paths(contributing)) {
  if (!file.exists(file.path(root, p))) found("CONTRIBUTING.md cites %s, which does not exist", p)
}

# The layer of each file in a picture: a line starting with "  <n> " opens layer n; the file
# names on it and on the indented lines that follow belong to that layer.
picture_layers <- function(lines) {
  layer <- NA_integer_
  out <- character(0)
  for (l in lines) {
    if (grepl("^  [1-9] ", l)) layer <- as.integer(substr(l, 3, 3))
    else if (!grepl("^ {4,}[A-Za-z]", l)) layer <- NA_integer_
    if (is.na(layer)) next
    files <- regmatches(l, gregexpr("[A-Za-z0-9_.-]+\\.R\\b", l))[[1]]
    out[files] <- layer
  }
  out
}
fence <- grep("^```", contributing)
start <- grep("^## Layers", contributing)
block <- fence[fence > start][1:2]
documented <- picture_layers(contributing[(block[1] + 1L):(block[2] - 1L)])
tool <- system2(file.path(R.home("bin"), "Rscript"), file.path(root, "tools", "layers.R"), stdout = TRUE)
actual <- picture_layers(tool)
for (f in setdiff(names(actual), names(documented)))
  found("CONTRIBUTING.md's layer picture lacks R/%s (layer %s)", f, actual[[f]])
for (f in setdiff(names(documented), names(actual)))
  found("CONTRIBUTING.md's layer picture names R/%s, which tools/layers.R does not place", f)
for (f in intersect(names(actual), names(documented))) {
  if (actual[[f]] != documented[[f]])
    found("CONTRIBUTING.md's layer picture puts R/%s in layer %s, tools/layers.R in %s", f, documented[[f]], actual[[f]])
}

methods <- sub("^pca-(.*)\\.R$", "\\1", list.files(file.path(root, "R"), "^pca-.*\\.R$"))
aliases <- unlist(lapply(list.files(file.path(root, "man"), "\\.Rd$", full.names = TRUE), function(f) {
  sub("^\\\\alias\\{(.*)\\}$", "\\1", grep("^\\\\alias\\{", readLines(f, warn = FALSE), value = TRUE))
}))
for (m in methods) {
  if (!paste0("fair_pca_", m) %in% aliases) found("R/pca-%s.R has no help topic fair_pca_%s (an @aliases in its roxygen)", m, m)
  if (!file.exists(file.path(root, "tests", "testthat", sprintf("test-pca-%s.R", m))))
    found("R/pca-%s.R has no test file tests/testthat/test-pca-%s.R", m, m)
}

code_lines <- function(path, comment) sub(comment, "", readLines(path, warn = FALSE))
tol_h <- file.path(root, "src", "tolerances.h")
cpp_names <- sub("^constexpr double ([A-Za-z0-9_]+) =.*$", "\\1",
                 grep("^constexpr double [A-Za-z0-9_]+ =", readLines(tol_h, warn = FALSE), value = TRUE))
cpp_code <- unlist(lapply(setdiff(list.files(file.path(root, "src"), "\\.(cpp|h)$", full.names = TRUE), tol_h),
                          code_lines, comment = "//.*$"))
for (nm in cpp_names) {
  uses <- sum(lengths(regmatches(cpp_code, gregexpr(sprintf("fp::tol::%s\\b", nm), cpp_code))))
  if (uses < 2L) found("src/tolerances.h names %s, used %d time(s) in src/: a tolerance used once is a literal where it is used", nm, uses)
}
r_names <- sub("^(fp_tol_[A-Za-z0-9_]+) <-.*$", "\\1",
               grep("^fp_tol_[A-Za-z0-9_]+ <-", readLines(file.path(root, "R", "validate.R"), warn = FALSE), value = TRUE))
r_code <- lapply(list.files(file.path(root, "R"), "\\.R$", full.names = TRUE), function(f) {
  grep("^fp_tol_[A-Za-z0-9_]+ <-", code_lines(f, "#.*$"), value = TRUE, invert = TRUE)
})
for (nm in r_names) {
  in_files <- sum(vapply(r_code, function(l) any(grepl(sprintf("\\b%s\\b", nm), l)), logical(1)))
  if (in_files < 2L) found("R/validate.R names %s, used in %d file(s) of R/: a tolerance of one file is named there", nm, in_files)
}

cat(sprintf("docs-check: %d source files and CONTRIBUTING.md read, %d R files in the layer picture, %d methods, %d named tolerances, %d finding(s)\n",
            length(sources), length(actual), length(methods), length(cpp_names) + length(r_names), length(findings)))
if (length(findings)) {
  cat(paste0("  ", findings, "\n"), sep = "")
  quit(status = 1L)
}
