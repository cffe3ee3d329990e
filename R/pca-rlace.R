#' Relaxed linear adversarial concept erasure (RLACE; Ravfogel et al. 2022) as a fair PCA baseline
#'
#' `fair_pca(x, group, k, method = "rlace")` removes a subspace of rank `rank` (default `d - k`)
#' chosen by a game between a projection and a linear classifier of the group. With `P` the
#' orthogonal projection onto the removed subspace and \eqn{\ell} the logistic loss, RLACE
#' solves
#' \deqn{\max_{P} \min_{\theta, b} \frac1n \sum_i \ell\big(z_i, \theta^\top (I - P) x_i + b\big)
#'   + \lambda \|\theta\|^2}
#' over the rank-`rank` projections, relaxed to their convex hull, the Fantope
#' \eqn{\{P = P^\top: 0 \preceq P \preceq I, \mathrm{tr}\,P = \mathrm{rank}\}}. The game is played
#' by alternating stochastic gradient steps on mini-batches: `clf_steps` Adam descent steps for the classifier
#' \eqn{(\theta, b)}, and projected Adam ascent steps for `P` (after each step `P` is projected
#' back onto the Fantope: its eigenvalues \eqn{\gamma_j} become \eqn{\min(\max(\gamma_j - s, 0), 1)}
#' with the shift `s` found by bisection so that they sum to `rank`). The gradient with respect to
#' `P` is \eqn{-\mathrm{sym}(X^\top g\, \theta^\top)/n}, `g` the residuals of the classifier.
#'
#' Every `eval_every` steps the relaxed `P` is rounded to the projection onto its top-`rank`
#' eigenvectors, a fresh L2-penalised logistic regression (penalty `lambda`, Newton's method) is
#' fitted on the data with that subspace removed, and the rounded projection whose classifier has
#' the largest training log-loss (the least group information left) is kept; the game stops early
#' once that classifier's training accuracy is within `accuracy_tol` of the majority rate. The
#' components are then the top-k principal directions of the data in the orthogonal complement of
#' the removed subspace: with `rank = d - k` (Kleindessner et al. 2023 ran RLACE so) the
#' complement is the k-dimensional span returned.
#'
#' Two groups only. **Needs the rows** (the classifier is fitted on them); a step costs
#' \eqn{O(b d + d^3)} for a batch of `b` rows (the Fantope projection is an eigendecomposition):
#' about `n_iter (6e-9 d^3 + 1e-9 clf_steps b d)` seconds, so the defaults take a few seconds at
#' d = 50 and minutes from d = 200. A fit estimated to take longer than the time limit
#' (`options(fairproj.time_limit = )`, in seconds, default 60) is refused up front with an error
#' of class `fairproj_cost_error` that says which `n_iter` fits.
#' In interactive sessions a progress bar counts the game steps (turn it off with
#' `options(fairproj.progress = FALSE)`).
#' The mini-batches (and, with `init = "random"`, the starting `P`) are random: pass `seed` (or
#' call [set.seed()]) for reproducible fits.
#'
#' The defaults (Adam, several classifier steps per projection step, `P` started at the centre of
#' the Fantope) are this package's: they converge in far fewer steps. Ravfogel et al.'s code plays
#' the game with plain stochastic gradient steps (`optimizer = "sgd"`, `lr_P = lr_clf = 0.005`,
#' `weight_decay = 1e-4`, `clf_steps = 1`, `batch_size = 128`, `eval_every = 1000`) from a random
#' Gaussian `P` (`init = "random"`, entries of sd 0.1). The difference matters where the removed
#' rank exceeds what the group information needs (e.g. `rank = d - k` with small `k`): the extra
#' removed directions are then not determined by the data but by the starting point and the
#' optimiser.
#'
#' Plain SGD steps are not bounded: with learning rates too large for the data the game diverges.
#' The fit then stops with a warning of class `fairproj_convergence_warning` and returns the best
#' projection evaluated before, or fails with an error of class `fairproj_numerical_error` when
#' none was evaluated yet.
#'
#' @param prep,data Supplied by [fair_pca()].
#' @param k Target dimension.
#' @param rank Rank of the removed subspace, between 1 and `d - k`; `NULL` for `d - k`.
#' @param n_iter Number of game steps (each: one classifier step and one projection step).
#' @param lr_P,lr_clf Adam learning rates of the projection and of the classifier (> 0).
#' @param clf_steps Classifier steps per projection step.
#' @param batch_size Rows per mini-batch (at most `n`).
#' @param lambda L2 penalty of the classifiers (>= 0).
#' @param eval_every Evaluate (round, refit a classifier, keep the best) every this many steps.
#' @param accuracy_tol Stop once the refitted classifier's accuracy is at most the majority rate
#'   plus `accuracy_tol`;
#'   `NULL` plays all `n_iter` steps (and keeps the best evaluated projection).
#' @param seed `NULL` (use the current random stream) or an integer seed for the mini-batches.
#' @param optimizer `"adam"` (default) or `"sgd"` (plain stochastic gradient steps, as Ravfogel et
#'   al.'s code) for both players.
#' @param weight_decay Weight decay (>= 0) of both players' steps, added to the gradients as in
#'   torch's optimisers (the classifier's on top of `lambda`).
#' @param init Starting `P`: `"centre"` (default; `rank / d` times the identity, the centre of the
#'   Fantope) or `"random"` (Gaussian entries of sd 0.1, as Ravfogel et al.'s code).
#' @return The fields added to the [fair_pca()] result: `rotation`, `removed` (d x `rank`
#'   orthonormal basis of the removed subspace, in the centred and scaled coordinates), `P` (the
#'   relaxed projection at the end of the game), `rank`, `accuracy` (training accuracy of the
#'   refitted classifier on the kept projection), `majority` (the majority rate), `iterations`,
#'   `history` (data.frame: `iteration`, `loss` and `accuracy` of the refitted classifier).
#' @references Ravfogel, S., Twiton, M., Goldberg, Y. and Cotterell, R. (2022). Linear
#'   adversarial concept erasure. ICML 2022, PMLR 162, 18400-18421.
#' @seealso [fair_pca()], [inlp], [delta_f_lin()].
#' @examples
#' set.seed(1)
#' g <- factor(rep(c("a", "b"), each = 100))
#' x <- matrix(rnorm(200 * 5), 200, 5)
#' x[g == "b", 1] <- x[g == "b", 1] + 2          # the groups differ along the first axis
#' fit <- fair_pca(x, g, k = 2, method = "rlace", rank = 1, n_iter = 500, seed = 1)
#' round(abs(fit$removed[, 1]), 2)              # removes (mostly) the first axis
#' c(accuracy = fit$accuracy, majority = fit$majority)
#' @name rlace
#' @aliases fair_pca_rlace
NULL

fit_pca_rlace <- function(prep, k, rank = NULL, n_iter = 2000L, lr_P = 0.1, lr_clf = 0.05,
                          clf_steps = 20L, batch_size = 256L, lambda = 1e-4, eval_every = 100L,
                          accuracy_tol = 0.001, seed = NULL, optimizer = c("adam", "sgd"),
                          weight_decay = 0, init = c("centre", "random"), data = NULL) {
  if (is.null(data)) {
    fp_abort_needs_rows("rlace", "the classifier is fitted on them")
  }
  if (length(prep$levels) != 2L) fp_abort("must have exactly 2 groups for method 'rlace'", "group")
  d <- prep$d
  if (k >= d) fp_abort(sprintf("must be below d = %d for method 'rlace' (at least one direction is removed)", d), "k")
  rank <- if (is.null(rank)) d - k else fp_check_count(rank, 1L, d - k, "rank")
  n_iter <- fp_check_count(n_iter, 1L, 1e7, "n_iter")
  fp_check_number(lr_P, "lr_P", 0, Inf, open_lower = TRUE, open_upper = TRUE)
  fp_check_number(lr_clf, "lr_clf", 0, Inf, open_lower = TRUE, open_upper = TRUE)
  fp_check_number(lambda, "lambda", 0, Inf, open_upper = TRUE)
  if (!is.null(accuracy_tol)) fp_check_number(accuracy_tol, "accuracy_tol", 0, 1)
  eval_every <- fp_check_count(eval_every, 1L, 1e7, "eval_every")
  clf_steps <- fp_check_count(clf_steps, 1L, 1e4, "clf_steps")
  optimizer <- fp_match_arg(optimizer, c("adam", "sgd"), "optimizer")
  init <- fp_match_arg(init, c("centre", "random"), "init")
  fp_check_number(weight_decay, "weight_decay", 0, Inf, open_upper = TRUE)
  restore <- fp_set_seed(seed)
  on.exit(restore(), add = TRUE)
  z <- fp_transform(prep, data$x)
  n <- nrow(z)
  batch_size <- fp_check_count(batch_size, 1L, .Machine$integer.max, "batch_size")
  batch_size <- min(batch_size, n)
  fp_rlace_check_cost(d, n_iter, clf_steps, batch_size)
  y <- as.numeric(data$group == prep$levels[2])
  majority <- max(mean(y), 1 - mean(y))
  P <- if (init == "centre") {
    diag(rank / d, d)  # the centre of the Fantope
  } else {
    matrix(stats::rnorm(d * d, sd = 0.1), d, d)  # as Ravfogel et al.'s code; projected after the first step
  }
  game <- fp_rlace_game(z, y, P, rank, list(
    n_iter = n_iter, batch_size = batch_size, clf_steps = clf_steps, lr_P = lr_P, lr_clf = lr_clf,
    lambda = lambda, weight_decay = weight_decay, eval_every = eval_every, accuracy_tol = accuracy_tol,
    majority = majority, step = fp_rlace_optimizer(optimizer)))
  best <- game$best
  Q <- best$Q
  # the kept space: the orthogonal complement of the removed subspace, PCA inside it
  Bk <- fp_orth_complement(Q)
  A <- crossprod(Bk, prep$C %*% Bk)
  V <- Bk %*% fp_eig_top((A + t(A)) / 2, k)$vectors
  hist <- as.data.frame(do.call(rbind, game$history))
  list(rotation = V, removed = Q, P = game$P, rank = rank, accuracy = best$accuracy, majority = majority,
       iterations = game$iterations, history = hist)
}

# The optimiser's step: st is its state (from fp_rlace_adam_state()), `grad` the gradient;
# returns the state with `step` set (plain SGD, or Adam with its usual constants).
fp_rlace_optimizer <- function(optimizer) {
  function(st, grad, lr) {
    if (optimizer == "sgd") {
      st$step <- lr * grad
      return(st)
    }
    st$t <- st$t + 1L
    st$m <- 0.9 * st$m + 0.1 * grad
    st$v <- 0.999 * st$v + 0.001 * grad^2
    st$step <- lr * (st$m / (1 - 0.9^st$t)) / (sqrt(st$v / (1 - 0.999^st$t)) + 1e-8)
    st
  }
}

# Adam state for theta = (w, b) or for P.
fp_rlace_adam_state <- function(dim) list(m = array(0, dim), v = array(0, dim), t = 0L)

# The game of Ravfogel et al. (2022) from the projection P: on each minibatch, `clf_steps`
# descent steps of the logistic classifier (w, b) on (I - P) x, then one ascent step of P and
# its projection onto the Fantope; every `eval_every` steps the projection is evaluated and the
# best kept. Stops after n_iter steps, or when the accuracy is within `accuracy_tol` of the
# majority rate, or (with a warning, or a classed error before any evaluation) when the
# iterates diverge. list(best, history (list of rows), P, iterations).
fp_rlace_game <- function(z, y, P, rank, o) {
  n <- nrow(z)
  d <- ncol(z)
  w <- numeric(d)
  b <- 0
  st_w <- fp_rlace_adam_state(d + 1L)
  st_P <- fp_rlace_adam_state(c(d, d))
  best <- NULL
  hist <- list()
  it <- 0L
  pb <- fp_progress_bar(o$n_iter, "RLACE game steps")
  on.exit(pb$done(), add = TRUE)
  while (it < o$n_iter) {
    it <- it + 1L
    pb$update(it)
    idx <- sample.int(n, o$batch_size)
    xb <- z[idx, , drop = FALSE]
    yb <- y[idx]
    # classifier steps (descent) on (I - P) x
    for (j in seq_len(o$clf_steps)) {
      u <- w - drop(P %*% w)                  # (I - P) w, so that s = x'(I - P)w + b
      g <- stats::plogis(drop(xb %*% u) + b) - yb
      xg <- drop(crossprod(xb, g)) / o$batch_size
      grad_w <- c(xg - drop(P %*% xg) + (2 * o$lambda + o$weight_decay) * w, mean(g) + o$weight_decay * b)
      st_w <- o$step(st_w, grad_w, o$lr_clf)
      w <- w - st_w$step[seq_len(d)]
      b <- b - st_w$step[d + 1L]
    }
    # projection step (ascent), then back onto the Fantope
    u <- w - drop(P %*% w)
    g <- stats::plogis(drop(xb %*% u) + b) - yb
    xg <- drop(crossprod(xb, g)) / o$batch_size
    grad_P <- -(tcrossprod(xg, w) + tcrossprod(w, xg)) / 2 - o$weight_decay * P
    st_P <- o$step(st_P, grad_P, o$lr_P)
    P_new <- P + st_P$step
    if (!all(is.finite(P_new)) || !all(is.finite(w)) || !is.finite(b)) {
      fp_rlace_diverged(it, best)
      break
    }
    P <- fp_fantope_project(P_new, rank)
    if (it %% o$eval_every == 0L || it == o$n_iter) {
      ev <- fp_rlace_evaluate(P, z, y, rank, o$lambda)
      hist[[length(hist) + 1L]] <- c(iteration = it, loss = ev$loss, accuracy = ev$accuracy)
      if (is.null(best) || ev$loss > best$loss) best <- c(ev, iteration = it)
      if (!is.null(o$accuracy_tol) && ev$accuracy - o$majority <= o$accuracy_tol) break
    }
  }
  list(best = best, history = hist, P = P, iterations = it)
}

# The game diverged (steps too large for the data) at step `it`: a classed error when no
# projection was evaluated before, otherwise a warning (the best one evaluated is returned).
fp_rlace_diverged <- function(it, best) {
  if (is.null(best)) {
    stop(errorCondition(sprintf(paste0(
      "method 'rlace': the game diverged at step %d (non-finite iterates) before any projection was ",
      "evaluated; use smaller `lr_P` / `lr_clf` or `weight_decay`"), it),
      class = c("fairproj_numerical_error", "fairproj_error"), call = NULL))
  }
  fp_warn_convergence(sprintf(paste0(
    "method 'rlace': the game diverged at step %d (non-finite iterates); the best projection evaluated ",
    "before (step %d) is returned; use smaller `lr_P` / `lr_clf` or `weight_decay`"),
    it, best$iteration))
}

# Euclidean projection of a symmetric matrix onto the Fantope {0 <= P <= I, tr P = r}: shift
# the eigenvalues by the s with sum(clip(gamma - s, 0, 1)) = r (bisection) and clip them.
fp_fantope_project <- function(P, r) {
  e <- eigen((P + t(P)) / 2, symmetric = TRUE)
  gam <- e$values
  f <- function(s) sum(pmin(pmax(gam - s, 0), 1))
  lo <- min(gam) - 1
  hi <- max(gam)
  for (i in seq_len(100L)) {
    mid <- (lo + hi) / 2
    if (f(mid) > r) lo <- mid else hi <- mid
    if (hi - lo < 1e-12) break
  }
  lam <- pmin(pmax(gam - (lo + hi) / 2, 0), 1)
  e$vectors %*% (lam * t(e$vectors))
}

# Round a relaxed P to the projection onto its top-r eigenvectors, remove that subspace from z
# and refit an L2-penalised logistic regression of y; its training log-loss and accuracy.
fp_rlace_evaluate <- function(P, z, y, r, lambda) {
  Q <- eigen((P + t(P)) / 2, symmetric = TRUE)$vectors[, seq_len(r), drop = FALSE]
  zk <- z - (z %*% Q) %*% t(Q)
  X <- cbind(1, zk)
  beta <- numeric(ncol(X))
  pen <- c(0, rep(2 * lambda * nrow(X), ncol(zk))) + 1e-8  # Newton on the summed loss
  for (i in seq_len(50L)) {
    p <- stats::plogis(drop(X %*% beta))
    grad <- drop(crossprod(X, p - y)) + pen * beta
    H <- crossprod(X, X * (p * (1 - p))) + diag(pen)
    step <- tryCatch(solve(H, grad), error = function(e) qr.solve(H, grad, tol = 1e-12))
    beta <- beta - step
    if (max(abs(step)) < 1e-8) break
  }
  eta <- drop(X %*% beta)
  loss <- mean(pmax(eta, 0) + log1p(exp(-abs(eta))) - y * eta)
  list(Q = Q, loss = loss, accuracy = mean((eta > 0) == (y == 1)))
}

# Orthonormal basis of the orthogonal complement of span(Q) (Q with orthonormal columns).
fp_orth_complement <- function(Q) {
  d <- nrow(Q)
  qrq <- qr(Q)
  qr.Q(qrq, complete = TRUE)[, seq.int(ncol(Q) + 1L, length.out = d - ncol(Q)), drop = FALSE]
}

# Refuses up front a fit estimated to take longer than the time limit (fp_check_cost()): a step
# costs about 6e-9 d^3 s (the Fantope projection) plus 1e-9 s per classifier step, row and column
# of a batch (measured: the defaults past 120 s at d = 200, the machine shared).
fp_rlace_check_cost <- function(d, n_iter, clf_steps, batch_size) {
  per <- 6e-9 * d^3 + 1e-9 * clf_steps * batch_size * d
  fits <- max(1, floor(min(fp_time_limit(), 1e9) / per))
  fp_check_cost(n_iter * per, sprintf("method \"rlace\" (%d steps over %d columns)", n_iter, d),
                sprintf("lower `n_iter` (n_iter = %d fits), or use method = \"mean\" (closed form)", fits))
}
