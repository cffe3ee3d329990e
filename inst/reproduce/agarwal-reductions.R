# The reductions approach of Agarwal, Beygelzimer, Dudik, Langford and Wallach (2018), "A
# reductions approach to fair classification" (ICML), for demographic parity: the baseline of
# Kleindessner et al.'s (2023) comparison, implemented from the paper for the reproductions
# (kleindessner-tradeoff.R, kleindessner-runtime-n.R). Not part of the package's API.
#
# Problem. Over randomised classifiers Q (distributions over classifiers h), minimise the
# error err(Q) subject to |E[h(X) | A = a] - E[h(X)]| <= eps for every group a: 2m linear
# constraints gamma(Q) - eps <= 0 on the moments gamma_(a,+) = mu_a - mu, gamma_(a,-) = mu - mu_a
# (mu_a, mu: the average prediction in group a and overall). Lagrangian
#   L(Q, lambda) = err(Q) + sum_j lambda_j (gamma_j(Q) - eps),  lambda >= 0, |lambda|_1 <= B.
# Algorithm (exponentiated gradient, as fairlearn's ExponentiatedGradient runs it: fairlearn
# 0.7.0, the version Kleindessner et al. ran; reductions/_exponentiated_gradient/, its defaults
# named below). Multipliers: lambda = B exp(theta) / (1 + sum exp(theta)), theta_0 = 0, B = 1 / eps.
# At step t (t = 0, 1, ...):
#   h_t = BEST_h(lambda_t), the best response to the multipliers: the cost-sensitive problem below,
#     solved by the learner; the new classifier is kept only if its Lagrangian value beats every
#     classifier found so far by more than 1e-8, else the best earlier one is the response;
#   Q_EG = the empirical distribution of h_0..h_t, lambda_EG = the mean of lambda_0..lambda_t;
#   gap_EG = the duality gap of (Q_EG, lambda_EG) (below); from t = 1 on, also the saddle point of
#     the Lagrangian over the mixtures of the classifiers found so far, by a linear programme
#     (Q_LP, its dual multipliers lambda_LP) with its own gap_LP; the step keeps the pair with
#     the smaller gap;
#   stop when that gap < nu and t >= 5;
#   the step size: eta = eta0 / B with eta0 = 2; from t >= 5, whenever t >= 1.6 x the step of the
#     last check, if the best gap_EG so far is not below 0.8 x the one at the last check, eta is
#     multiplied by 0.8 (the regret check);
#   theta <- theta + eta (gamma(h_t) - eps).
# Output: the mixture kept at the last step whose gap is within 1e-8 of the smallest gap.
# Defaults: eps = 0.01 (here set by the caller), at most 50 steps, eta0 = 2, and
#   nu = 0.5 sd(|h_0(X) - y|) / sqrt(n) (sd with divisor n - 1), the data-dependent default.
# Duality gap of (Q, lambda): with the multipliers projected onto one sign per group
# (lambda_(a,+) - lambda_(a,-) on the side of its sign, 0 on the other),
#   L = err(Q) + sum_j lambda_j (gamma_j(Q) - eps),
#   L_high = err(Q) + B max(0, max_j gamma_j(Q) - eps) (the best response of the multipliers),
#   L_low = min over the best responses h to mul x lambda, mul in 1, 2, 5, 10 (stopping at the
#     first mul whose gap exceeds nu + 1e-8), of L(h, lambda);
#   gap = max(L - L_low, L_high - L).
# BEST_h(lambda) minimises L(h, lambda), which is linear in the predictions h_i = h(x_i) with
# cost of predicting 1 on row i, relative to predicting 0,
#   c_i = ((1 - 2 y_i) + lambda_(a_i) / p_(a_i) - sum_a lambda_a) / n,
# lambda_a = lambda_(a,+) - lambda_(a,-), p_a the share of group a: a cost-sensitive problem
# reduced to weighted classification with labels 1{c_i < 0} and weights |c_i| (rescaled to sum
# to n), handed to the learner (logistic regression, as in the papers' experiments; a constant
# classifier when every label is the same).
# The linear programme (every step from t = 1, over the h_s found so far):
#   min_(q, s) sum_s q_s err(h_s) + B s  subject to  sum_s q_s (gamma_j(h_s) - eps) <= s for every j,
#   q in the simplex, s >= 0,
# solved by ECOSolveR (an interior-point method, where fairlearn 0.7.0 uses scipy's simplex);
# its multipliers lambda_LP are ECOS's dual variables of the constraints j.
# Predictions of Q are its expected predictions sum_s Q_s h_s(x) in [0, 1]; accuracy and the
# demographic-parity gap of Q are the expected ones (err(Q) and gamma(Q) of the paper).

# Logistic regression with case weights `w`: reg = 0 is glm (stats::glm.fit, quasi-binomial so
# that fractional weights are allowed; the same coefficients as binomial); reg > 0 minimises
# the weighted mean log-loss plus reg * |b|^2 (intercept not penalised) by Newton's method,
# which is scikit-learn's LogisticRegression(C = 1 / (2 n reg)) with sample weights summing to
# n. Returns c(intercept, coefficients).
repro_logistic <- function(x, y, w = NULL, reg = 0, tol = 1e-14, maxit = 100L) {
  X <- cbind(1, x)
  n <- nrow(X)
  w <- if (is.null(w)) rep(1, n) else w * n / sum(w)
  if (reg == 0) {
    # separable weighted problems are expected inside the reduction: glm's warnings about fitted
    # probabilities of 0 or 1 do not change the 0/1 predictions used
    fit <- suppressWarnings(stats::glm.fit(X, y, weights = w, family = stats::quasibinomial()))
    b <- fit$coefficients
    b[is.na(b)] <- 0
    return(unname(b))
  }
  pen <- c(0, rep(1, ncol(x)))
  obj <- function(b) {
    eta <- drop(X %*% b)
    sum(w * (pmax(eta, 0) + log1p(exp(-abs(eta))) - y * eta)) / n + reg * sum(pen * b^2)
  }
  b <- rep(0, ncol(X))
  f <- obj(b)
  for (it in seq_len(maxit)) {
    p <- stats::plogis(drop(X %*% b))
    g <- drop(crossprod(X, w * (p - y))) / n + 2 * reg * pen * b
    H <- crossprod(X, X * (w * p * (1 - p))) / n + diag(2 * reg * pen + 1e-12, length(b))
    step <- solve(H, g)
    dec <- sum(g * step)                 # Newton decrement squared: the predicted decrease x 2
    if (dec / 2 <= tol * max(1, abs(f))) break
    s <- 1
    repeat {                             # backtracking (Armijo) line search
      bn <- b - s * step
      fn <- obj(bn)
      if (fn <= f - 0.25 * s * dec || s < 1e-10) break
      s <- s / 2
    }
    if (fn > f) break                    # rounding level: no step decreases the objective
    b <- bn
    f <- fn
  }
  b
}

repro_logistic_predict <- function(b, x) as.integer(drop(cbind(1, x) %*% b) >= 0)

# Demographic-parity moments of (expected) predictions p: gamma_(a,+), gamma_(a,-) per group a.
agarwal_gamma <- function(p, group) {
  d <- vapply(split(p, group), mean, numeric(1)) - mean(p)
  as.vector(rbind(d, -d))
}

# Fit the exponentiated-gradient reduction (see the header). `learner`: "glm" (unpenalised
# logistic regression) or "l2" (penalty `reg`, see repro_logistic()). `nu = NULL`: the
# data-dependent default. Returns a list of class "agarwal_eg": the classifiers' coefficients
# (columns of `coef`), the mixture weights `Q` of the output, the steps run (`iterations`), the
# step whose mixture is returned (`best_t`, 0-based as the steps), its gap `gap`, `nu`, whether
# gap < nu (`converged`), the learner calls (`oracle_calls`) and the last step size (`eta`).
agarwal_eg <- function(x, y, group, eps, learner = c("glm", "l2"), reg = 0.01, max_iter = 50L, nu = NULL,
                       eta0 = 2, run_lp = TRUE) {
  learner <- match.arg(learner)
  x <- as.matrix(x)
  y <- as.numeric(y)
  group <- factor(group)
  n <- nrow(x)
  B <- 1 / eps
  st <- agarwal_state(x, y, group, eps, B, learner, reg)
  K <- st$K
  theta <- rep(0, K)
  lam_sum <- rep(0, K)
  counts <- numeric(0)           # Q_EG's counts over the classifiers found so far
  Qs <- list()
  gaps <- gaps_eg <- numeric(0)
  last_checked <- 5
  last_gap <- Inf
  for (t in seq_len(max_iter) - 1L) {
    lam <- B * exp(theta) / (1 + sum(exp(theta)))
    lam_sum <- lam_sum + lam
    lam_eg <- lam_sum / (t + 1)
    h <- st$best_h(lam)
    if (t == 0L) {
      if (is.null(nu)) nu <- 0.5 * stats::sd(abs(st$pred(h) - y)) / sqrt(n)
      eta <- eta0 / B
    }
    counts <- c(counts, numeric(st$size() - length(counts)))
    counts[h] <- counts[h] + 1
    q_eg <- counts / sum(counts)
    gap_eg <- st$gap(q_eg, lam_eg, nu)
    gaps_eg <- c(gaps_eg, gap_eg)
    lp <- if (t > 0L && run_lp) st$linprog(nu) else list(gap = Inf)
    if (gap_eg < lp$gap) {
      Qs[[t + 1L]] <- q_eg
      gaps <- c(gaps, gap_eg)
    } else {
      Qs[[t + 1L]] <- lp$q
      gaps <- c(gaps, lp$gap)
    }
    if (gaps[t + 1L] < nu && t >= 5L) break
    if (t >= last_checked * 1.6) {             # the regret check: shrink the step if progress stalls
      best <- min(gaps_eg)
      if (best > last_gap * 0.8) eta <- eta * 0.8
      last_checked <- t
      last_gap <- best
    }
    theta <- theta + eta * (st$gamma_of(h) - eps)
  }
  best_t <- max(which(gaps <= min(gaps) + 1e-8))
  Q <- Qs[[best_t]]
  Q <- c(Q, rep(0, st$size() - length(Q)))
  structure(list(coef = st$coef(), Q = Q, iterations = length(gaps), best_t = best_t - 1L, gap = gaps[best_t],
                 nu = nu, converged = gaps[best_t] < nu, oracle_calls = st$calls(), eta = eta, eps = eps,
                 learner = learner),
            class = "agarwal_eg")
}

# The classifiers found so far and the operations on them (best response, Lagrangian, gap,
# linear programme), as closures over one environment.
agarwal_state <- function(x, y, group, eps, B, learner, reg) {
  n <- nrow(x)
  pa <- as.vector(table(group)) / n
  ia <- as.integer(group)
  K <- 2L * nlevels(group)
  coefs <- list()
  preds <- list()
  errs <- numeric(0)
  gams <- matrix(0, K, 0)
  calls <- 0L
  lp_size <- 0L
  lp_last <- NULL
  err_of <- function(p) mean(abs(p - y))
  # one sign per group: the net multiplier on the side of its sign
  project <- function(lam) {
    net <- lam[c(TRUE, FALSE)] - lam[c(FALSE, TRUE)]
    as.vector(rbind(pmax(net, 0), pmax(-net, 0)))
  }
  lagrangian <- function(q, lam) {
    e <- sum(errs * q)
    g <- drop(gams %*% q)
    lp <- project(lam)
    list(L = e + sum(lp * (g - eps)), L_high = e + if (max(g) < eps) 0 else B * (max(g) - eps))
  }
  unit <- function(i) replace(numeric(length(errs)), i, 1)
  best_h <- function(lam) {
    net <- lam[c(TRUE, FALSE)] - lam[c(FALSE, TRUE)]
    cost <- ((1 - 2 * y) + net[ia] / pa[ia] - sum(net)) / n
    lab <- as.numeric(cost < 0)
    calls <<- calls + 1L
    b <- if (all(lab == lab[1])) c(if (lab[1] == 1) 1 else -1, rep(0, ncol(x))) else  # one class: a constant
      repro_logistic(x, lab, abs(cost), reg = if (learner == "glm") 0 else reg)
    p <- repro_logistic_predict(b, x)
    e <- err_of(p)
    g <- agarwal_gamma(p, group)
    value <- e + sum(g * lam)
    if (length(errs)) {
      vals <- errs + drop(crossprod(gams, lam))
      best <- which.min(vals)
      if (value >= vals[best] - 1e-8) return(best)
    }
    coefs[[length(coefs) + 1L]] <<- b
    preds[[length(preds) + 1L]] <<- p
    errs <<- c(errs, e)
    gams <<- cbind(gams, g)
    length(errs)
  }
  gap <- function(q, lam, nu) {
    v <- lagrangian(q, lam)
    L_low <- v$L
    g <- max(v$L - L_low, v$L_high - v$L)
    for (mul in c(1, 2, 5, 10)) {
      h <- best_h(mul * lam)
      L_low <- min(L_low, lagrangian(unit(h), lam)$L)
      g <- max(v$L - L_low, v$L_high - v$L)
      if (g > nu + 1e-8) break
    }
    g
  }
  linprog <- function(nu) {
    H <- length(errs)
    if (H == lp_size) return(lp_last)
    sol <- agarwal_lp(errs, gams, eps, B)
    lp_size <<- H
    q <- sol$q
    lp_last <<- list(q = q, lambda = sol$lambda, gap = gap(q, sol$lambda, nu))
    lp_last
  }
  list(K = K, best_h = best_h, gap = gap, linprog = linprog, pred = function(i) preds[[i]],
       gamma_of = function(i) gams[, i], size = function() length(errs), calls = function() calls,
       coef = function() do.call(cbind, coefs))
}

# The saddle point of the Lagrangian over mixtures q of classifiers with errors `errs` and
# moments `gam` (K x H): minimise sum_s q_s errs_s + B s over q in the simplex and s >= 0 subject
# to (gam - eps) q <= s; returns q and the multipliers of the K constraints (ECOS's duals).
agarwal_lp <- function(errs, gam, eps, B) {
  H <- length(errs)
  K <- nrow(gam)
  G <- rbind(-diag(H + 1L), cbind(gam - eps, -1))
  h <- rep(0, H + 1L + K)
  sol <- ECOSolveR::ECOS_csolve(c = c(errs, B), G = G, h = h, dims = list(l = nrow(G), q = NULL, e = 0L),
                                A = matrix(c(rep(1, H), 0), 1L), b = 1)
  if (!sol$retcodes[["exitFlag"]] %in% c(0L, 10L)) stop("agarwal_lp: the linear programme failed (ECOS exit flag ",
                                                          sol$retcodes[["exitFlag"]], ")")
  q <- pmax(sol$x[seq_len(H)], 0)
  list(q = q / sum(q), lambda = pmax(sol$z[H + 1L + seq_len(K)], 0))
}

# Expected prediction of the randomised classifier: the probability that it predicts 1.
agarwal_predict <- function(object, newdata) {
  drop((cbind(1, as.matrix(newdata)) %*% object$coef >= 0) %*% object$Q)
}

# Expected accuracy and demographic-parity gap (largest minus smallest group rate) of
# predictions p in [0, 1] (0/1 for a deterministic classifier).
expected_metrics <- function(p, y, group) {
  rate <- vapply(split(p, factor(group)), mean, numeric(1))
  c(accuracy = mean(p * y + (1 - p) * (1 - y)), dp_gap = max(rate) - min(rate))
}
