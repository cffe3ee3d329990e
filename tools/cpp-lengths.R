# Lengths of the C++ functions and files of src/ (src/*.cpp, src/*.h; RcppExports.cpp is
# generated and skipped). Base R only; runs no package code.
#
#   Rscript tools/cpp-lengths.R              the functions longer than the limit, then the files
#   Rscript tools/cpp-lengths.R --limit=60   another limit for the listing
#   Rscript tools/cpp-lengths.R --check      exits 1 when a function exceeds 120 lines, a file
#                                            exceeds 600 lines, a helper sits at file scope or
#                                            the unity build's file lists differ from src/, a
#                                            header defines a function without inline or an
#                                            [[Rcpp::export]] takes more than 8 parameters
#
# Functions are found by matching braces after comments, strings and preprocessor lines are
# blanked: a `{` outside any function whose header (the text since the previous `;`, `{` or `}`)
# ends in a parameter list `(...)` (then qualifiers, an initialiser list or a trailing return
# type) opens a function; namespace, class, struct, union and enum bodies are walked into.
# A function's length runs from the first line of its header to its closing brace; lambdas and
# local classes count towards the function that holds them. A function outside every namespace
# and class that is not an Rcpp export (`// [[Rcpp::export...]]` on the line above) is a helper
# at file scope.

fn_limit <- 120L
file_limit <- 600L

args <- commandArgs(TRUE)
check <- "--check" %in% args
lim <- grep("^--limit=", args, value = TRUE)
list_limit <- if (length(lim)) as.integer(sub("^--limit=", "", lim[1])) else fn_limit
src <- if (file.exists("src")) "src" else file.path(dirname(sub("^--file=", "", grep("^--file=",
  commandArgs(FALSE), value = TRUE)[1])), "..", "src")

# The text of a file with comments, string and character literals and preprocessor lines
# replaced by blanks (newlines kept, so positions still give line numbers).
blank_code <- function(txt) {
  ch <- strsplit(txt, "")[[1]]
  n <- length(ch)
  out <- ch
  i <- 1L
  line_start <- TRUE
  while (i <= n) {
    c1 <- ch[i]
    c2 <- if (i < n) ch[i + 1L] else ""
    if (line_start && c1 == "#") {  # preprocessor line, with continuations
      while (i <= n && !(ch[i] == "\n" && ch[i - 1L] != "\\")) { out[i] <- " "; i <- i + 1L }
      next
    }
    if (c1 == "/" && c2 == "/") {
      while (i <= n && ch[i] != "\n") { out[i] <- " "; i <- i + 1L }
      next
    }
    if (c1 == "/" && c2 == "*") {
      j <- i + 2L
      while (j < n && !(ch[j] == "*" && ch[j + 1L] == "/")) j <- j + 1L
      idx <- i:min(n, j + 1L)
      out[idx] <- ifelse(ch[idx] == "\n", "\n", " ")
      i <- j + 2L
      next
    }
    if (c1 == "\"" || c1 == "'") {
      j <- i + 1L
      while (j <= n && ch[j] != c1) j <- j + if (ch[j] == "\\") 2L else 1L
      idx <- (i + 1L):min(n, j - 1L)
      if (j - 1L >= i + 1L) out[idx] <- " "
      i <- j + 1L
      line_start <- FALSE
      next
    }
    if (c1 == "\n") line_start <- TRUE
    else if (!grepl("[[:space:]]", c1)) line_start <- FALSE
    i <- i + 1L
  }
  out
}

# The number of parameters of the function whose (blanked, flattened) header is `head`: the
# commas at depth zero of its first parameter list, counting (), <>, [] and {} as nesting.
count_params <- function(head) {
  ch <- strsplit(sub("^[^(]*\\(", "", head), "")[[1]]
  depth <- 0L
  commas <- 0L
  body <- character(0)
  for (c1 in ch) {
    if (c1 %in% c("(", "<", "[", "{")) depth <- depth + 1L
    if (c1 %in% c(")", ">", "]", "}")) {
      if (depth == 0L) break
      depth <- depth - 1L
    }
    if (c1 == "," && depth == 0L) commas <- commas + 1L
    body <- c(body, c1)
  }
  if (!nzchar(trimws(paste(body, collapse = ""))) || trimws(paste(body, collapse = "")) == "void") 0L
  else commas + 1L
}

# Data frame of the functions of one file: name, first line, lines.
file_functions <- function(path) {
  src_lines <- readLines(path, warn = FALSE)
  txt <- paste(src_lines, collapse = "\n")
  ch <- blank_code(txt)
  line <- cumsum(c(1L, ch[-length(ch)] == "\n"))
  stack <- character(0)  # kinds of the open blocks: "scope", "function", "other"
  fn_start <- integer(0)
  fn_name <- character(0)
  header_from <- 1L
  rows <- list()
  for (i in seq_along(ch)) {
    c1 <- ch[i]
    if (c1 != "{" && c1 != "}" && c1 != ";") next
    in_fn <- "function" %in% stack
    if (c1 == ";") {
      if (!in_fn) header_from <- i + 1L
      next
    }
    if (c1 == "{") {
      if (in_fn) { stack <- c(stack, "other"); next }
      head <- paste(ch[header_from:max(header_from, i - 1L)], collapse = "")
      head_flat <- gsub("[[:space:]]+", " ", head)
      kind <- if (grepl("(^|[^[:alnum:]_])(namespace|class|struct|union|enum)([^[:alnum:]_]|$)", head_flat) &&
                  !grepl("\\)", sub("(namespace|class|struct|union|enum).*", "", head_flat))) {
        if (grepl("(^|[^[:alnum:]_])namespace([^[:alnum:]_]|$)", head_flat)) "namespace" else "scope"
      } else if (grepl("\\)[^()]*$", head_flat) || grepl("\\)\\s*:", head_flat)) {
        "function"
      } else "other"
      if (kind %in% c("namespace", "scope") && grepl("=", head_flat)) kind <- "other"
      if (kind == "function") {
        first <- header_from
        first_line <- 0L
        while (first < i && grepl("[[:space:]]", ch[first])) first <- first + 1L
        nm <- regmatches(head_flat, regexpr("[[:alnum:]_:~<>]+(?=\\s*\\()", head_flat, perl = TRUE))
        fn_start <- line[first]
        first_line <- fn_start
        fn_name <- if (length(nm)) nm else "?"
        fn_free <- !("namespace" %in% stack) && !("scope" %in% stack)
        fn_export <- first_line > 1L && grepl("[[Rcpp::export", src_lines[line[first] - 1L], fixed = TRUE)
        fn_inline <- "scope" %in% stack ||
          grepl("(^|[^[:alnum:]_])(inline|template|constexpr)([^[:alnum:]_]|$)", head_flat)
        fn_params <- if (fn_export) count_params(head_flat) else NA_integer_
      }
      stack <- c(stack, kind)
      header_from <- i + 1L
      next
    }
    # closing brace
    kind <- stack[length(stack)]
    stack <- stack[-length(stack)]
    if (identical(kind, "function") && !("function" %in% stack)) {
      rows[[length(rows) + 1L]] <- data.frame(file = basename(path), fun = fn_name, first = fn_start,
                                              lines = line[i] - fn_start + 1L,
                                              file_scope = fn_free && !fn_export, inline = fn_inline,
                                              export = fn_export, params = fn_params)
    }
    if (!("function" %in% stack)) header_from <- i + 1L
  }
  if (length(rows)) do.call(rbind, rows) else
    data.frame(file = character(0), fun = character(0), first = integer(0), lines = integer(0),
               file_scope = logical(0), inline = logical(0), export = logical(0), params = integer(0))
}

files <- list.files(src, "\\.(cpp|h)$", full.names = TRUE)
files <- files[basename(files) != "RcppExports.cpp"]
fns <- do.call(rbind, lapply(files, file_functions))
fns <- fns[order(-fns$lines), ]
flen <- vapply(files, function(f) length(readLines(f, warn = FALSE)), integer(1))
long_fns <- fns[fns$lines > list_limit, ]
cat(sprintf("%d functions in %d files; longest %d lines; over %d lines: %d\n", nrow(fns), length(files),
            max(fns$lines), list_limit, nrow(long_fns)))
if (nrow(long_fns)) print(long_fns[, c("file", "fun", "first", "lines")], row.names = FALSE)
long_files <- flen[flen > file_limit]
cat(sprintf("files over %d lines: %d\n", file_limit, length(long_files)))
if (length(long_files)) print(data.frame(file = basename(names(long_files)), lines = unname(long_files)),
                              row.names = FALSE)
loose <- fns[fns$file_scope, c("file", "fun", "first")]
cat(sprintf("helpers at file scope (outside a namespace, not an Rcpp export): %d\n", nrow(loose)))
if (nrow(loose)) print(loose[order(loose$file, loose$first), ], row.names = FALSE)
# The unity build's three lists (src/fairproj_all.cpp's includes, FP_SOURCES of src/Makevars and
# src/Makevars.win) against the files themselves: a .cpp missing from fairproj_all.cpp is never
# compiled, a file missing from FP_SOURCES does not trigger a rebuild when it changes.
unity_file <- file.path(src, "fairproj_all.cpp")
all_cpp <- setdiff(basename(list.files(src, "\\.cpp$")), "fairproj_all.cpp")
all_h <- basename(list.files(src, "\\.h$"))
included <- sub('^#include "(.*)"$', "\\1", grep('^#include "', readLines(unity_file), value = TRUE))
fp_sources <- function(path) {
  txt <- paste(readLines(path), collapse = "\n")
  txt <- gsub("\\\\\n", " ", txt)
  line <- regmatches(txt, regexpr("FP_SOURCES *=[^\n]*", txt))
  strsplit(trimws(sub("FP_SOURCES *=", "", line)), "[[:space:]]+")[[1]]
}
list_diffs <- function(what, listed, want) {
  c(if (length(setdiff(want, listed))) sprintf("%s lacks %s", what, paste(setdiff(want, listed), collapse = ", ")),
    if (length(setdiff(listed, want))) sprintf("%s names missing files %s", what, paste(setdiff(listed, want), collapse = ", ")))
}
unity <- c(list_diffs("src/fairproj_all.cpp", included, all_cpp),
           unlist(lapply(c("Makevars", "Makevars.win"), function(f)
             list_diffs(file.path("src", f), fp_sources(file.path(src, f)), c(all_cpp, all_h)))))
cat(sprintf("unity build lists out of date: %d\n", length(unity)))
if (length(unity)) cat(paste0("  ", unity, "\n"), sep = "")
# Functions defined in a header are inline (or templates, or members of a class), so that a
# header may be included by several translation units.
not_inline <- fns[grepl("[.]h$", fns$file) & !fns$inline, c("file", "fun", "first")]
cat(sprintf("functions defined in a header without inline: %d\n", nrow(not_inline)))
if (nrow(not_inline)) print(not_inline[order(not_inline$file, not_inline$first), ], row.names = FALSE)
# No compiled entry takes more than 8 parameters: options cross as one named list (RSpectra's
# opts).
param_limit <- 8L
wide <- fns[fns$export & fns$params > param_limit, c("file", "fun", "params")]
cat(sprintf("entries with more than %d parameters: %d\n", param_limit, nrow(wide)))
if (nrow(wide)) print(wide[order(wide$file), ], row.names = FALSE)
if (check && (any(fns$lines > fn_limit) || length(long_files) || nrow(loose) || length(unity) ||
              nrow(not_inline) || nrow(wide))) quit(status = 1L)
