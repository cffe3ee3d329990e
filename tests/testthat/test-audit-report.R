# The R Markdown report (inst/rmarkdown/templates/fair-pca-audit).

# Drafts the template into the folder `td` and returns a function that renders it with `params`
# (NULL: the draft's own) and returns the page as one line: whitespace collapsed (pandoc wraps
# lines of text) and the embedded images dropped (megabytes of base64, which expect_match()
# would escape for its message). Every render fails the calling test on an R warning raised
# while knitting (other than rmarkdown's or pandoc's own) and on a warning, message or error
# that knitr wrote into the page after "##".
report_renderer <- function(td) {
  rmd <- file.path(td, "audit.Rmd")
  rmarkdown::draft(rmd, template = "fair-pca-audit", package = "fairproj", edit = FALSE)
  tooling <- function(w) {
    fun <- conditionCall(w)[[1L]]
    grepl("pandoc", conditionMessage(w), ignore.case = TRUE) ||
      (is.name(fun) && exists(as.character(fun), envir = asNamespace("rmarkdown"), inherits = FALSE))
  }
  function(params = NULL) {
    warns <- character(0)
    f <- withCallingHandlers(
      suppressMessages(rmarkdown::render(rmd, params = params, output_dir = td, quiet = TRUE, envir = new.env())),
      warning = function(w) {
        if (is.null(conditionCall(w)) || !tooling(w)) {
          warns <<- c(warns, conditionMessage(w))
          invokeRestart("muffleWarning")
        }
      })
    html <- gsub("\\s+", " ", gsub("data:[a-z]+/[a-z+]+;base64,[A-Za-z0-9+/=]+", "", paste(readLines(f), collapse = " ")))
    expect_identical(warns, character(0), label = "the R warnings raised while knitting")
    expect_false(grepl("## (Warning|Message|Error)|Warning in |Warning:|Error in ", html), label = "a warning, message or error in the report")
    html
  }
}
# The set-up of a test that renders the report: skipped on CRAN (seconds of CPU: kept out of
# CRAN's time budget) unless `cran = TRUE`, and where rmarkdown, knitr, pandoc or one of the
# packages `needs` is missing; returns a fresh folder removed when the calling test ends.
report_folder <- function(needs = character(0), cran = FALSE, env = parent.frame()) {
  if (!cran) skip_on_cran()
  for (p in c("rmarkdown", "knitr", needs)) skip_if_not_installed(p)
  skip_if_not(rmarkdown::pandoc_available("1.14"), "pandoc is not available")
  withr::local_tempdir("audit", .local_envir = env)
}
has <- function(html, pattern, fixed = TRUE) expect_true(grepl(pattern, html, fixed = fixed), label = pattern)
hasnt <- function(html, pattern, fixed = TRUE) expect_false(grepl(pattern, html, fixed = fixed), label = pattern)
n_img <- function(html) lengths(regmatches(html, gregexpr("<img ", html, fixed = TRUE)))

test_that("the template renders an HTML report with the figures and the audit's numbers", {
  td <- report_folder()
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  render <- report_renderer(td)
  html <- render(list(data = df, group = "grp", outcome = "out", features = NULL, k = 1:3, seed = 2))
  a <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:3, scale. = TRUE, seed = 2)
  # figures: standard PCA's losses, one per fair method, the price, the downstream gaps and accuracy
  expect_equal(n_img(html), 6L)
  num <- function(v) trimws(formatC(signif(v, 3), format = "fg", digits = 3, big.mark = ","))
  kf <- a$k_focus
  gs <- a$groups_table[a$groups_table$method == "standard" & a$groups_table$k == kf, ]
  at <- a$table[a$table$k == kf, ]
  for (v in c(num(gs$loss), num(gs$error), num(at$max_loss[at$method == "minmax"]),
              paste0(trimws(formatC(signif(100 * at$price[at$method == "minmax"], 2), format = "fg", digits = 2)), "%"),
              paste0(num(100 * a$downstream$accuracy[a$downstream$k == kf]), "%"))) {
    expect_true(grepl(v, html, fixed = TRUE), info = v)
  }
  # grepl(), not expect_match(), on the pages: expect_match() escapes its whole subject (megabytes
  # of embedded images) for its message even when it passes
  expect_true(grepl(sprintf("With k = %d components, standard PCA keeps", kf), html, fixed = TRUE))
  expect_true(grepl("Downstream checks", html, fixed = TRUE))
  expect_false(grepl("Small group", html, fixed = TRUE))
  # the held-out table's caption says what "?" marks: a group with too few held-out rows (b: 27
  # of its 90 rows), and the table marks its gaps
  few <- names(a$outcome$n_test_groups)[a$outcome$n_test_groups < a$outcome$min_test_rows]
  expect_identical(few, "b")
  has(html, sprintf("?: b has fewer than %d held-out rows, so the gaps are mostly noise", a$outcome$min_test_rows))
  # from group moments: the report says the downstream checks were not run; a tiny group is
  # flagged; the template's default `group` ("sex") is not used, as the moments carry the groups
  m <- group_moments(dat$x[c(1:120, 121:140), ], dat$g[c(1:120, 121:140)])
  html2 <- render(list(data = m, outcome = NULL, features = NULL, k = 1:2))
  expect_true(grepl("Downstream checks were not run", html2, fixed = TRUE))
  expect_true(grepl("Small group", html2, fixed = TRUE))
  expect_equal(n_img(html2), 4L)
  has(html2, "<title>Fair PCA audit of the data by group</title>")
  has(html2, "of the data serves every group about equally well (140 rows in 2 groups: a and b)")
  hasnt(html2, "<code>sex</code>")
  hasnt(html2, "by sex")
})

test_that("the template reports intervals, with and without an outcome, and says when they do not rank", {
  td <- report_folder(cran = TRUE)
  render <- report_renderer(td)
  dat <- iv_data(n = c(150, 120), d = 5, seed = 9)
  set.seed(2)
  df <- data.frame(dat$x, grp = dat$g, out = as.integer(dat$x[, 1] + rnorm(nrow(dat$x)) > 0))
  html <- render(list(data = df, group = "grp", outcome = "out", features = NULL, k = 1:2, seed = 2))
  has(html, "90% bootstrap intervals")
  has(html, "intervals from resampling the held-out rows")
  has(html, "held-out rows by group")
  # no data_name: the data are not named after the template's example
  has(html, "<title>Fair PCA audit of the data by grp</title>")
  # each fair method against standard PCA from the paired replicates, not from overlapping intervals
  has(html, "largest marginal loss changes by")
  has(html, "the data (do not )?show that it (lowers|raises|changes)", fixed = FALSE)
  expect_false(grepl("intervals of the two largest losses do not overlap|their intervals, .* overlap", html))
  html2 <- render(list(data = data.frame(iris[1:4], Species = iris$Species), data_name = "iris", group = "Species",
                       outcome = NULL, features = NULL, k = 1:3, k_focus = 3, seed = 1))
  has(html2, "90% bootstrap intervals")
  has(html2, "Downstream checks were not run")
  # the title and the first paragraph name the data set and the group variable
  has(html2, "<title>Fair PCA audit of iris by Species</title>")
  has(html2, "of iris serves every group of <code>Species</code>")
  # an "n/a" says why where it appears: mean matching keeps at most 4 - (3 - 1) = 2 components
  has(html2, "n/a: mean matching has no fit at k = 3, because k = 3 exceeds the feasible dimension 2")
  # and the reading says so in a sentence of its own
  has(html2, "Mean matching could not be fitted at this k (k = 3 exceeds the feasible dimension 2")
  # every figure has a non-empty alt text
  for (h in list(html, html2)) {
    img <- regmatches(h, gregexpr("<img[^>]*>", h))[[1]]
    expect_gte(length(img), 4L)
    expect_true(all(grepl("alt=\"[^\"]+\"", img)), label = "every <img> has a non-empty alt")
  }
})

test_that("the draft as shipped knits with no warning or message, names survival::pbc and one label per method", {
  td <- report_folder("survival")
  # no warning while knitting and none written into the report (report_renderer())
  html <- report_renderer(td)(NULL)
  expect_true(grepl("<title>Fair PCA audit of survival::pbc by sex</title>", html, fixed = TRUE))
  expect_true(grepl("principal component analysis (PCA) of survival::pbc serves every group of <code>sex</code>",
                    html, fixed = TRUE))
  # one label per method, as in the plots and print
  for (lab in fp_fit_label(c("standard", "minmax", "mean"))) expect_true(grepl(lab, html, fixed = TRUE), label = lab)
  expect_false(grepl("min-max fair PCA|mean-matching fair PCA|minmax</td>|>mean</td>", html))
  # scaling is the audit's default, and the report gives the call of its fits
  expect_true(grepl("scales by default", html, fixed = TRUE))
  expect_true(grepl("fair_pca(x, group, k = &lt;k&gt;, method = \"&lt;method&gt;\", scale. = TRUE)", html, fixed = TRUE) ||
                grepl("fair_pca(x, group, k = &lt;k&gt;, method = &quot;&lt;method&gt;&quot;, scale. = TRUE)", html, fixed = TRUE))
})

test_that("the template takes the held-out row threshold from the audit, not a number of its own", {
  rmd <- system.file("rmarkdown", "templates", "fair-pca-audit", "skeleton", "skeleton.Rmd", package = "fairproj")
  skip_if(!nzchar(rmd), "the template is not installed")
  src <- readLines(rmd)
  expect_false(any(grepl(sprintf("\\b%d\\b", fp_min_test_rows), src)))
  expect_true(any(grepl("audit$outcome$min_test_rows", src, fixed = TRUE)))
  dat <- audit_data()
  a <- fair_audit(dat$x, dat$g, k = 1:2, outcome = dat$y, replicates = 0, seed = 1)
  expect_identical(a$outcome$min_test_rows, fp_min_test_rows)
})

test_that("the template's k_focus is the k of the intervals, so its tables, text and plots agree", {
  td <- report_folder()
  render <- report_renderer(td)
  html <- render(list(data = iris, group = "Species", k = 1:3, k_focus = 1))
  a <- fair_audit(~ ., data = iris, group = Species, k = 1:3, seed = 1, interval_k = 1)
  expect_false(a$k_focus == 1)  # the audit's own k_focus is another: the report must not use it
  has(html, "the text details k = 1 (chosen in the report")
  has(html, "With k = 1 component, standard PCA keeps")
  has(html, "interval_k = 1L")
  # the interval of standard PCA's largest loss at k = 1, and the paired comparisons at k = 1
  num <- function(v) trimws(formatC(signif(v, 3), format = "fg", digits = 3, big.mark = ","))
  std <- a$table[a$table$method == "standard" & a$table$k == 1, ]
  has(html, sprintf("%s [%s, %s]", num(std$max_loss), num(std$max_loss_low), num(std$max_loss_high)))
  has(html, "largest marginal loss changes by")
})

test_that("the template's parameters are checked with classed errors that name them", {
  td <- report_folder(cran = TRUE)
  render <- report_renderer(td)
  expect_error(render(list(data = as.matrix(iris[1:4]))), class = "fairproj_input_error", regexp = "^`data`")
  expect_error(render(list(data = file.path(td, "no-such-file.csv"))), class = "fairproj_input_error", regexp = "^`data`")
  expect_error(render(list(data = iris, group = "Species", k = 1:2, k_focus = 3)), class = "fairproj_input_error",
               regexp = "^`k_focus`")
  expect_error(render(list(data = iris, group = "Species", k_focus = 1.5)), class = "fairproj_input_error",
               regexp = "^`k_focus`")
  # without `k`, the audit chooses the dimensions (1 to 3 for iris): k_focus is checked against them
  expect_error(render(list(data = iris, group = "Species", k_focus = 4)), class = "fairproj_input_error",
               regexp = "^`k_focus`")
})

test_that("the template gives every reason for unreliable intervals and no ratio to a loss not told from 0", {
  td <- report_folder("MASS")
  render <- report_renderer(td)
  bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
  bw <- bw[c("age", "lwt", "smoke", "ptl", "ht", "ui", "ftv", "race", "low")]
  html <- render(list(data = bw, group = "race", outcome = "low", data_name = "MASS::birthwt"))
  a <- fair_audit(~ ., data = bw, group = race, outcome = low, seed = 1)
  kf <- a$k_focus
  # the reasons of the groups' rows (group black has 26 rows) beside the table's, which names one group
  why <- fp_audit_reasons(a, kf)
  expect_gt(length(setdiff(why, a$table$reason[a$table$k == kf])), 0L)
  for (r in why) has(html, r)
  has(html, "too few rows in group black (26 rows")
  # standard PCA's smallest loss at k_focus is not told from 0: no ratio is given for it
  std <- a$table[a$table$method == "standard" & a$table$k == kf, ]
  expect_identical(std$min_loss_low, 0)
  ratio <- trimws(formatC(signif(std$loss_ratio, 2), format = "fg", digits = 2))
  hasnt(html, sprintf("%s times the smallest", ratio))
  hasnt(html, sprintf("%s times group", ratio))
  has(html, "cannot be told from 0 at the 90% level, so the data do not bound their ratio")
  has(html, sprintf("Over the audited k other than %d (where the smallest cannot be told from 0)", kf))
  # every group has fewer than 30 held-out rows: the caption says what "?" marks
  has(html, sprintf("?: white, black and other have fewer than %d held-out rows", a$outcome$min_test_rows))
})

test_that("the template states a solver's warning in the text instead of printing it", {
  td <- report_folder()
  # robust fair PCA on iris at k = 3 lowers `lambda` to the groups' limit, with a warning
  expect_warning(fair_audit(~ ., data = iris, group = Species, k = 3, methods = c("standard", "robust"),
                            replicates = 0), "lambda")
  html <- report_renderer(td)(list(data = iris, group = "Species", k = 2:3, methods = c("standard", "robust")))
  has(html, "Reading the data and fitting gave a warning: <code>lambda</code>")
})
