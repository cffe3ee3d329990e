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
# Algorithm 1 (exponentiated gradient): theta_1 = 0; at step t
#   lambda_t = B exp(theta) / (1 + sum exp(theta));  h_t = BEST_h(lambda_t);
#   Q_t = uniform mixture of h_1..h_t, lambda_hat_t = mean of lambda_1..lambda_t;
#   nu_t = max(L(Q_t, BEST_lambda(Q_t)) - L(Q_t, lambda_hat_t),
#              L(Q_t, lambda_hat_t) - min_{s <= t} L(h_s, lambda_hat_t));
#   stop when nu_t <= nu, else theta <- theta + eta (gamma(h_t) - eps).
# BEST_lambda(Q) puts all of B on the most violated constraint (0 when none is violated).
# BEST_h(lambda) minimises L(h, lambda), which is linear in the predictions h_i = h(x_i) with
# cost of predicting 1 on row i, relative to predicting 0,
#   c_i = ((1 - 2 y_i) + lambda_(a_i) / p_(a_i) - sum_a lambda_a) / n,
# lambda_a = lambda_(a,+) - lambda_(a,-), p_a the share of group a: a cost-sensitive problem
# reduced to weighted classification with labels 1{c_i < 0} and weights |c_i|, handed to the
# learner (here logistic regression, as in the paper's experiments).
# Settings: B = 1 / eps, eta = 2 / B, at most 50 steps, nu = 1e-6 (the defaults of fairlearn's
# ExponentiatedGradient, the authors' code, with which Kleindessner et al. ran the baseline).
# Output: with `lp = TRUE` (the default, as the authors' code) the mixture of the classifiers
# h_1..h_T found by the steps that solves the linear programme
#   min_Q err(Q) + B s  subject to  gamma_j(Q) - eps <= s for every j, s >= 0
# over the simplex (solved by ECOSolveR); with 50 steps and B = 1 / eps the average Q_T of
# Algorithm 1 is still far from its limit (it over-satisfies loose constraints), and the
# programme picks the best mixture of the same classifiers. `lp = FALSE` returns Q_T itself.
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

# Fit the exponentiated-gradient reduction. `learner`: "glm" (unpenalised logistic regression)
# or "l2" (penalty `reg`, see repro_logistic()). Returns a list of class "agarwal_eg" with the
# classifiers' coefficients (columns of `coef`), their mixture weights `Q`, the steps taken,
# the last gap estimate `gap` and whether it reached `nu`.
agarwal_eg <- function(x, y, group, eps, learner = c("glm", "l2"), reg = 0.01, B = 1 / eps, eta = 2 / B,
                       max_iter = 50L, nu = 1e-6, lp = TRUE) {
  learner <- match.arg(learner)
  x <- as.matrix(x)
  y <- as.numeric(y)
  group <- factor(group)
  n <- nrow(x)
  pa <- as.vector(table(group)) / n
  ia <- as.integer(group)
  K <- 2L * nlevels(group)
  err <- function(p) mean(abs(p - y))
  lagr <- function(p, lam) err(p) + sum(lam * (agarwal_gamma(p, group) - eps))
  best_h <- function(lam) {
    net <- lam[c(TRUE, FALSE)] - lam[c(FALSE, TRUE)]
    cost <- ((1 - 2 * y) + net[ia] / pa[ia] - sum(net)) / n
    lab <- as.numeric(cost < 0)
    if (all(lab == lab[1])) return(c(if (lab[1] == 1) 1 else -1, rep(0, ncol(x))))  # one class: a constant
    repro_logistic(x, lab, abs(cost), reg = if (learner == "glm") 0 else reg)
  }
  theta <- rep(0, K)
  coefs <- list()
  P <- matrix(0, n, 0)
  lam_sum <- rep(0, K)
  gap <- Inf
  for (t in seq_len(max_iter)) {
    mx <- max(theta, 0)
    lam <- B * exp(theta - mx) / (exp(-mx) + sum(exp(theta - mx)))
    b <- best_h(lam)
    p_t <- repro_logistic_predict(b, x)
    coefs[[t]] <- b
    P <- cbind(P, p_t)
    lam_sum <- lam_sum + lam
    pQ <- rowMeans(P)
    lam_hat <- lam_sum / t
    L_hat <- lagr(pQ, lam_hat)
    viol <- agarwal_gamma(pQ, group) - eps
    L_best_lam <- err(pQ) + if (max(viol) > 0) B * max(viol) else 0
    L_low <- min(apply(P, 2, lagr, lam = lam_hat))
    gap <- max(L_best_lam - L_hat, L_hat - L_low)
    if (gap <= nu) break
    theta <- theta + eta * (agarwal_gamma(p_t, group) - eps)
  }
  Q <- if (lp) agarwal_lp(apply(P, 2, err), apply(P, 2, agarwal_gamma, group = group), eps, B) else rep(1 / t, t)
  structure(list(coef = do.call(cbind, coefs), Q = Q, iterations = t, gap = gap,
                 converged = gap <= nu, eps = eps, learner = learner, lp = lp),
            class = "agarwal_eg")
}

# The best mixture of t classifiers with errors `errs` and moments `gam` (K x t): minimise
# sum_s q_s errs_s + B s over q in the simplex and s >= 0 subject to gam q - eps <= s.
agarwal_lp <- function(errs, gam, eps, B) {
  t <- length(errs)
  K <- nrow(gam)
  G <- rbind(cbind(-diag(t + 1L)), cbind(gam, -1))
  h <- c(rep(0, t + 1L), rep(eps, K))
  sol <- ECOSolveR::ECOS_csolve(c = c(errs, B), G = G, h = h, dims = list(l = nrow(G), q = NULL, e = 0L),
                                A = matrix(c(rep(1, t), 0), 1L), b = 1)
  if (!sol$retcodes[["exitFlag"]] %in% c(0L, 10L)) stop("agarwal_lp: the linear programme failed (ECOS exit flag ",
                                                          sol$retcodes[["exitFlag"]], ")")
  q <- pmax(sol$x[seq_len(t)], 0)
  q / sum(q)
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
