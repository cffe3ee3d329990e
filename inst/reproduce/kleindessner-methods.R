# The methods of Kleindessner et al.'s Adult table with their settings, shared by
# efficient-fair-pca.R (full protocol) and kleindessner-runtime.R (one-run timings).
kleindessner_fitters <- function(k) list(
  "PCA" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "standard"),
  "FPCA (0.1, 0.01)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "cfpca", delta = 0.1,
                                               mu = 0.01, scaling = "fairml", gap_tol = 1e-4),
  "FPCA (0, 0.01)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "cfpca", delta = 0,
                                             mu = 0.01, scaling = "fairml", gap_tol = 1e-4),
  "MbF-PCA (1e-3)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mbfpca", tau = 1e-3),
  "MbF-PCA (1e-6)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mbfpca", tau = 1e-6),
  "INLP" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "inlp", classifier = "svm",
                                   intercept = FALSE),
  # Ravfogel et al.'s game (their code's SGD settings, random start), 10000 steps as Kleindessner et al.
  "RLACE" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "rlace", n_iter = 10000L, accuracy_tol = NULL, seed = 1,
                                    optimizer = "sgd", init = "random", weight_decay = 1e-4, lr_P = 0.005,
                                    lr_clf = 0.005, clf_steps = 1L, batch_size = 128L, eval_every = 1000L),
  "Fair PCA" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mean"),
  "Fair Kernel PCA" = function(x, z) fair_kpca(x, z, k, kernel = "rbf", gamma = "scale", center = FALSE),
  "Fair PCA-S (0.5)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mean", equalize_cov = 0.5),
  "Fair PCA-S (0.85)" = function(x, z) fair_pca(x, z, k, center = FALSE, method = "mean", equalize_cov = 0.85))

# The papers' MLP classifier, scikit-learn's MLPClassifier((10, 5), random_state = 999,
# max_iter = 10000), run by a Python interpreter that has scikit-learn (sklearn-mlp.py beside this
# file). `python`: FAIRPROJ_PYTHON if set, else the first of python3 and /usr/bin/python3 that
# imports sklearn; NULL when there is none (the scripts then report only RSNNS's "mlp2").
sklearn_python <- function() {
  cand <- Sys.getenv("FAIRPROJ_PYTHON", "")
  cand <- if (nzchar(cand)) cand else unique(c(Sys.which("python3"), "/usr/bin/python3"))
  for (py in cand[nzchar(cand)]) {
    ok <- suppressWarnings(tryCatch(system2(py, c("-c", shQuote("import sklearn")), stdout = FALSE, stderr = FALSE),
                                    error = function(e) 1L))
    if (identical(as.integer(ok), 0L)) return(py)
  }
  NULL
}
sklearn_mlp <- function(scores, y, z, python, script) {
  fin <- tempfile(fileext = ".csv")
  fout <- tempfile(fileext = ".txt")
  on.exit(unlink(c(fin, fout)))
  utils::write.table(cbind(scores, y), fin, sep = ",", row.names = FALSE, col.names = FALSE)
  status <- system2(python, c(shQuote(script), shQuote(fin), shQuote(fout)))
  if (!identical(as.integer(status), 0L) || !file.exists(fout)) stop("sklearn-mlp.py failed")
  pred <- scan(fout, quiet = TRUE)
  c(acc = 100 * mean(pred == y), dp = abs(mean(pred[z == 1]) - mean(pred[z == 0])))
}
