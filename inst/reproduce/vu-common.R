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
