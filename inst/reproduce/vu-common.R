# Helpers shared by the Vu et al. (2022) scripts (robust-fair-pca.R, vu-table4.R); sourced from
# the directory of results-io.R.

# The paper's train/test split: a fraction `frac` of each group, drawn with `seed`.
split_train <- function(group, frac, seed) {
  set.seed(seed)
  unlist(lapply(split(seq_along(group), group), function(i) i[sample.int(length(i), floor(frac * length(i)))]),
         use.names = FALSE)
}

# A fit whose output is a non-projection map (FairPCA's affine output) is evaluated with the map
# for ABDiff and ARE; Delta F_Lin needs k coordinates, and the paper takes the top-k
# eigenvectors of the map.
as_k_projection <- function(fit) {
  if (is.null(fit$map)) return(fit)
  e <- eigen(fit$map, symmetric = TRUE)
  rot <- e$vectors[, seq_len(fit$k), drop = FALSE]
  rownames(rot) <- rownames(fit$rotation)
  fit$rotation <- rot
  fit$map <- NULL
  fit$rank <- fit$k
  class(fit) <- setdiff(class(fit), "fair_pca_minmax")
  fit
}

# The authors' splits and folds, drawn with numpy's own streams (numpy-rng.cpp, compiled on first
# use): per split one numpy.random.default_rng(seed); the rows of each group (S = 0 first, the
# first level of fairproj_data()'s factor) shuffled by it and the first floor(frac * N_a) to
# train; then the train and the test order shuffled by the same stream. Cross-validation folds
# as sklearn's KFold(n_splits, shuffle = True, random_state = seed) on the training order:
# RandomState(seed).shuffle(0:(n - 1)), consecutive blocks of sizes n %/% k (+1 for the first
# n %% k). Returns list(train, test) (1-based row numbers, in that order).
# FAIRPROJ_VU_SPLITS = "numpy" (the default) draws the authors' splits, "r" R's own
# (split_train()); vu_train_rows() gives the training rows either way. The numpy generator is
# compiled from numpy-rng.cpp beside the script (repro_script_dir() of results-io.R).
numpy_splits <- Sys.getenv("FAIRPROJ_VU_SPLITS", "numpy") == "numpy"
vu_train_rows <- function(group, frac, seed) {
  if (numpy_splits) split_numpy(group, frac, seed)$train else split_train(group, frac, seed)
}
load_numpy_rng <- function() {
  if (!exists("np_default_rng", mode = "function")) {
    Rcpp::sourceCpp(file.path(repro_script_dir(), "numpy-rng.cpp"), env = globalenv())
  }
}
split_numpy <- function(group, frac, seed) {
  load_numpy_rng()
  rng <- np_default_rng(seed)
  tr <- integer(0); te <- integer(0)
  for (lev in levels(group)) {
    idx <- np_rng_shuffle(rng, which(group == lev) - 1L)
    n_tr <- floor(frac * length(idx))
    tr <- c(tr, idx[seq_len(n_tr)])
    te <- c(te, idx[setdiff(seq_along(idx), seq_len(n_tr))])
  }
  list(train = np_rng_shuffle(rng, tr) + 1L, test = np_rng_shuffle(rng, te) + 1L)
}
kfold_numpy <- function(n, k, seed) {
  load_numpy_rng()
  idx <- np_randomstate_shuffle(seed, 0:(n - 1L))
  sizes <- rep(n %/% k, k)
  sizes[seq_len(n %% k)] <- sizes[seq_len(n %% k)] + 1L
  fold <- integer(n)
  fold[idx + 1L] <- rep(seq_len(k), sizes)
  fold
}
