# The R Markdown report (inst/rmarkdown/templates/fair-pca-audit).

test_that("the template renders an HTML report with the figures and the audit's numbers", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("knitr")
  skip_if_not(rmarkdown::pandoc_available("1.14"), "pandoc is not available")
  dat <- audit_data()
  df <- data.frame(dat$x, grp = dat$g, out = dat$y)
  td <- tempfile("audit")
  dir.create(td)
  on.exit(unlink(td, recursive = TRUE), add = TRUE)
  rmd <- file.path(td, "audit.Rmd")
  rmarkdown::draft(rmd, template = "fair-pca-audit", package = "fairproj", edit = FALSE)
  render <- function(params) {
    suppressMessages(rmarkdown::render(rmd, params = params, output_dir = td, quiet = TRUE, envir = new.env()))
  }
  html <- paste(readLines(render(list(data = df, group = "grp", outcome = "out", features = NULL, k = 1:3,
                                      seed = 2))), collapse = "\n")
  a <- fair_audit(~ ., data = df, group = grp, outcome = out, k = 1:3, scale. = TRUE, seed = 2)
  # figures: standard PCA's losses, one per fair method, the price, the downstream gaps and accuracy
  expect_equal(lengths(regmatches(html, gregexpr("<img src=\"data:image/png;base64", html))), 6L)
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
  # from group moments: the report says the downstream checks were not run; a tiny group is flagged
  m <- group_moments(dat$x[c(1:120, 121:140), ], dat$g[c(1:120, 121:140)])
  html2 <- paste(readLines(render(list(data = m, group = NULL, outcome = NULL, features = NULL, k = 1:2))),
                 collapse = "\n")
  expect_true(grepl("Downstream checks were not run", html2, fixed = TRUE))
  expect_true(grepl("Small group", html2, fixed = TRUE))
  expect_equal(lengths(regmatches(html2, gregexpr("<img src=\"data:image/png;base64", html2))), 4L)
})

test_that("the template reports intervals, with and without an outcome, and says when they do not rank", {
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("knitr")
  skip_if_not(rmarkdown::pandoc_available("1.14"), "pandoc is not available")
  td <- tempfile("audit")
  dir.create(td)
  on.exit(unlink(td, recursive = TRUE), add = TRUE)
  rmd <- file.path(td, "audit.Rmd")
  rmarkdown::draft(rmd, template = "fair-pca-audit", package = "fairproj", edit = FALSE)
  render <- function(params) {
    f <- suppressMessages(rmarkdown::render(rmd, params = params, output_dir = td, quiet = TRUE, envir = new.env()))
    # pandoc wraps lines of text; the embedded images (megabytes of base64) are dropped, as
    # expect_match() escapes its whole subject for its message
    gsub("\\s+", " ", gsub("data:[a-z]+/[a-z+]+;base64,[A-Za-z0-9+/=]+", "", paste(readLines(f), collapse = " ")))
  }
  has <- function(html, pattern, fixed = TRUE) expect_true(grepl(pattern, html, fixed = fixed), label = pattern)
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
                       outcome = NULL, features = NULL, k = 1:3, seed = 1))
  has(html2, "90% bootstrap intervals")
  has(html2, "Downstream checks were not run")
  # the title and the first paragraph name the data set and the group variable
  has(html2, "<title>Fair PCA audit of iris by Species</title>")
  has(html2, "of iris serves every group of <code>Species</code>")
  # an "n/a" says why where it appears: mean matching keeps at most 4 - (3 - 1) = 2 components
  has(html2, "n/a: mean matching has no fit at k = 3, because k = 3 exceeds the feasible dimension 2")
  # every figure has a non-empty alt text
  for (h in list(html, html2)) {
    img <- regmatches(h, gregexpr("<img[^>]*>", h))[[1]]
    expect_gte(length(img), 4L)
    expect_true(all(grepl("alt=\"[^\"]+\"", img)), label = "every <img> has a non-empty alt")
  }
})

test_that("the draft as shipped knits with no warning or message, names survival::pbc and one label per method", {
  skip_on_cran()  # seconds of CPU: kept out of CRAN's time budget
  skip_if_not_installed("rmarkdown")
  skip_if_not_installed("knitr")
  skip_if_not_installed("survival")
  skip_if_not(rmarkdown::pandoc_available("1.14"), "pandoc is not available")
  td <- tempfile("audit")
  dir.create(td)
  on.exit(unlink(td, recursive = TRUE), add = TRUE)
  rmd <- file.path(td, "audit.Rmd")
  rmarkdown::draft(rmd, template = "fair-pca-audit", package = "fairproj", edit = FALSE)
  warns <- character(0)
  f <- withCallingHandlers(
    suppressMessages(rmarkdown::render(rmd, output_dir = td, quiet = TRUE, envir = new.env())),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  html <- gsub("\\s+", " ", gsub("data:[a-z]+/[a-z+]+;base64,[A-Za-z0-9+/=]+", "", paste(readLines(f), collapse = " ")))
  expect_identical(warns, character(0))
  # knitr writes a chunk's warnings and messages into the report after "##"
  expect_false(grepl("## (Warning|Message|Error)|Warning in |Warning:", html), label = "a warning or message in the report")
  expect_true(grepl("<title>Fair PCA audit of survival::pbc by sex</title>", html, fixed = TRUE))
  expect_true(grepl("principal component analysis (PCA) of survival::pbc serves every group of <code>sex</code>",
                    html, fixed = TRUE))
  # one label per method, as in the plots and print
  for (lab in fp_audit_label(c("standard", "minmax", "mean"))) expect_true(grepl(lab, html, fixed = TRUE), label = lab)
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
