# The layer map of R/: which file calls which, every circle of files, and every call that goes
# up a layer. Reads the sources with R's parser and runs no package code.
#
#   Rscript tools/layers.R            the picture (CONTRIBUTING.md shows it), then the findings
#   Rscript tools/layers.R --check    the findings only; exits 1 when there is a circle
#
# A file's layer comes from `layer_of` below (first matching pattern). Calls within a layer are
# allowed as long as they form no circle; a call from a lower layer to a higher one is listed.

layer_names <- c("1 checks and conditions", "2 reading data", "3 preparing a problem", "4 solvers",
                 "5 results, front doors")
layer_of <- function(file) {
  rules <- list(
    `1` = c("^validate\\.R$", "^linalg\\.R$", "^backend\\.R$", "^progress\\.R$", "^RcppExports\\.R$",
            "^fairproj-package\\.R$"),
    `2` = c("^moments", "^groups\\.R$", "^newdata\\.R$", "^formula\\.R$", "^data"),
    `3` = c("^prepare"),
    `4` = c("^solvers\\.R$", "^pca-", "^css-", "^kpca-", "^mmd\\.R$"),
    `5` = c("^fair_pca\\.R$", "^fair_css\\.R$", "^tune\\.R$", "^pareto_front\\.R$", "^methods-", "^broom\\.R$", "^plot-",
            "^autoplot\\.R$", "^audit", "^metrics", "^group-stats\\.R$", "^step_", "^route")
  )
  for (l in names(rules)) if (any(vapply(rules[[l]], grepl, logical(1), x = file))) return(as.integer(l))
  NA_integer_
}

# Top-level functions of each file and the names each one calls.
read_defs <- function(dir) {
  files <- sort(list.files(dir, pattern = "\\.R$"))
  defs <- list()
  for (f in files) {
    exprs <- parse(file.path(dir, f), keep.source = FALSE)
    for (e in exprs) {
      if (is.call(e) && is.name(e[[1]]) && as.character(e[[1]]) %in% c("<-", "=") && is.name(e[[2]]) &&
          is.call(e[[3]]) && identical(e[[3]][[1]], as.name("function"))) {
        defs[[length(defs) + 1L]] <- list(name = as.character(e[[2]]), file = f,
                                          calls = unique(all.names(e[[3]][[3]])))
      }
    }
  }
  defs
}

# Strongly connected components (Tarjan) of a graph given as a named list of successor vectors.
circles <- function(adj) {
  nodes <- names(adj)
  index <- setNames(rep(NA_integer_, length(nodes)), nodes)
  low <- index
  on <- setNames(rep(FALSE, length(nodes)), nodes)
  stack <- character(0)
  counter <- 0L
  out <- list()
  visit <- function(v) {
    counter <<- counter + 1L
    index[v] <<- counter
    low[v] <<- counter
    stack <<- c(stack, v)
    on[v] <<- TRUE
    for (w in adj[[v]]) {
      if (is.na(index[w])) {
        visit(w)
        low[v] <<- min(low[v], low[w])
      } else if (on[w]) {
        low[v] <<- min(low[v], index[w])
      }
    }
    if (low[v] == index[v]) {
      comp <- character(0)
      repeat {
        w <- stack[length(stack)]
        stack <<- stack[-length(stack)]
        on[w] <<- FALSE
        comp <- c(comp, w)
        if (w == v) break
      }
      if (length(comp) > 1L) out[[length(out) + 1L]] <<- sort(comp)
    }
  }
  for (v in nodes) if (is.na(index[v])) visit(v)
  out
}

main <- function(args) {
  check_only <- "--check" %in% args
  dir <- if (dir.exists("R")) "R" else stop("run from the package root")
  defs <- read_defs(dir)
  home <- setNames(vapply(defs, `[[`, "", "file"), vapply(defs, `[[`, "", "name"))
  edges <- list()
  for (d in defs) {
    callee <- intersect(d$calls, names(home))
    for (cn in callee) {
      to <- home[[cn]]
      if (to != d$file) edges[[length(edges) + 1L]] <- data.frame(from = d$file, to = to, fun = d$name, calls = cn)
    }
  }
  edges <- do.call(rbind, edges)
  files <- sort(unique(home))
  adj <- lapply(setNames(files, files), function(f) unique(edges$to[edges$from == f]))
  layer <- vapply(files, layer_of, integer(1))

  if (!check_only) {
    cat("Layers of R/ (each calls only its own layer or those below):\n\n")
    for (l in seq_along(layer_names)) {
      fl <- files[!is.na(layer) & layer == l]
      cat(sprintf("  %-26s %s\n", layer_names[l], paste(fl, collapse = "  ")))
    }
    if (any(is.na(layer))) cat(sprintf("  %-26s %s\n", "(no layer)", paste(files[is.na(layer)], collapse = "  ")))
    cat("\n")
  }
  circ <- circles(adj)
  cat(sprintf("%d R files, %d file-to-file calls, %d circle(s)\n", length(files),
              nrow(unique(edges[c("from", "to")])), length(circ)))
  for (cc in circ) {
    cat(sprintf("circle: %s\n", paste(cc, collapse = ", ")))
    inside <- edges[edges$from %in% cc & edges$to %in% cc, ]
    for (p in split(inside, paste(inside$from, inside$to))) {
      cat(sprintf("  %s -> %s: %s\n", p$from[1], p$to[1],
                  paste(unique(paste0(p$fun, "->", p$calls)), collapse = ", ")))
    }
  }
  up <- edges[!is.na(layer[edges$from]) & !is.na(layer[edges$to]) & layer[edges$from] < layer[edges$to], ]
  if (nrow(up)) {
    cat(sprintf("%d call(s) up a layer:\n", nrow(up)))
    for (i in seq_len(nrow(up))) {
      cat(sprintf("  %s (%d) -> %s (%d): %s -> %s\n", up$from[i], layer[up$from[i]], up$to[i], layer[up$to[i]],
                  up$fun[i], up$calls[i]))
    }
  }
  if (check_only && length(circ)) quit(status = 1)
}

main(commandArgs(trailingOnly = TRUE))
