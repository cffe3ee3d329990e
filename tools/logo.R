# Draws the package logo (man/figures/logo.png) and the site's favicons (pkgdown/favicon/), which
# pkgdown would otherwise try to make online. Run from the repository root: Rscript tools/logo.R
logo <- function(file, size, text = TRUE) {
  png(file, width = size, height = round(size * 278 / 240), bg = "transparent", type = "cairo")
  par(mar = c(0, 0, 0, 0)); plot.new(); plot.window(c(-1, 1), c(-1.16, 1.16), asp = 1)
  a <- seq(90, 450, by = 60) * pi / 180
  polygon(cos(a), sin(a), col = "#0072B2", border = "#004B75", lwd = max(1, 6 * size / 240))
  set.seed(3); n <- 60
  x1 <- rnorm(n, -0.1, 0.28); y1 <- 0.5 * x1 + rnorm(n, 0, 0.08) + 0.12
  x2 <- rnorm(n, 0.1, 0.28); y2 <- -0.3 * x2 + rnorm(n, 0, 0.08) - 0.12
  cex <- max(0.2, 0.9 * size / 240)
  points(x1, y1, pch = 16, cex = cex, col = "#E69F00"); points(x2, y2, pch = 16, cex = cex, col = "#F0E442")
  segments(-0.75, -0.09, 0.75, 0.09, col = "white", lwd = max(1, 5 * size / 240))
  if (text) text(0, -0.62, "fairproj", col = "white", cex = 2.1 * size / 240, font = 2)
  invisible(dev.off())
}
logo("man/figures/logo.png", 240)
dir.create("pkgdown/favicon", showWarnings = FALSE, recursive = TRUE)
for (s in c(16, 32)) logo(sprintf("pkgdown/favicon/favicon-%dx%d.png", s, s), s, text = FALSE)
for (s in c(60, 76, 120)) logo(sprintf("pkgdown/favicon/apple-touch-icon-%dx%d.png", s, s), s, text = FALSE)
logo("pkgdown/favicon/apple-touch-icon.png", 180, text = FALSE)
# favicon.ico: an ICO file holding the 32-pixel PNG
p <- readBin("pkgdown/favicon/favicon-32x32.png", "raw", 1e6)
le <- function(x, n) writeBin(as.integer(x), raw(), size = n, endian = "little")
ico <- c(le(0, 2), le(1, 2), le(1, 2), as.raw(c(32, 37, 0, 0)), le(1, 2), le(32, 2), le(length(p), 4), le(22, 4), p)
writeBin(ico, "pkgdown/favicon/favicon.ico")
