# make test-site: opens the built pkgdown site in headless Chromium and checks, on the home page,
# the reference index, the fair_pca page and an article with figures, that the main heading
# renders, every image loads, nothing is logged as an error, and Bootstrap's styles apply (a
# computed style); writes a screenshot of each page. Usage: Rscript tools/test-site.R docs shots
# Chromium is driven through the DevTools protocol (--remote-debugging-pipe: commands on its fd
# 3, a named pipe here; replies and events on fd 4, a file here; NUL-separated JSON), which needs
# no extra package.
`%||%` <- function(a, b) if (is.null(a)) b else a
args <- commandArgs(trailingOnly = TRUE)
site <- normalizePath(if (length(args) >= 1) args[1] else "docs", mustWork = TRUE)
shots <- if (length(args) >= 2) args[2] else "docs-screenshots"
dir.create(shots, showWarnings = FALSE, recursive = TRUE)
browser <- Sys.which(c("chromium", "chromium-browser", "google-chrome"))
browser <- browser[nzchar(browser)][1]
if (is.na(browser)) stop("no Chromium found (Debian package chromium)")

pages <- list(
  list(file = "index.html", name = "home", heading = "fairproj", images = 0),
  list(file = "reference/index.html", name = "reference-index", heading = "Function reference", images = 0),
  list(file = "reference/fair_pca.html", name = "fair_pca", heading = "Fair principal component analysis",
       images = 0),
  list(file = "articles/getting-started.html", name = "article-getting-started",
       heading = "Getting started with fairproj", images = 1))

tmp <- tempfile("cdp")
dir.create(tmp)
to_browser <- file.path(tmp, "in")
from_browser <- file.path(tmp, "out")
system2("mkfifo", to_browser)
# The subshell's `exec` sets stdin, stdout and stderr for good before the pipe is opened, whose
# opening waits for this process: nothing keeps system()'s output open meanwhile.
pid <- system(sprintf(paste("(exec </dev/null >/dev/null 2>%s; exec %s --headless=new --no-sandbox --disable-gpu",
                            "--no-first-run --remote-debugging-pipe --user-data-dir=%s about:blank 3<%s 4>%s)",
                            "& echo $!"),
                      shQuote(file.path(tmp, "stderr")), shQuote(browser), shQuote(file.path(tmp, "profile")),
                      shQuote(to_browser), shQuote(from_browser)), intern = TRUE)
wcon <- fifo(to_browser, "w+b")  # read-write: opens at once, and lets Chromium open its end
offset <- 0  # Chromium appends its messages to the file `from_browser`: read what is new

buffer <- raw(0)
events <- list()
next_id <- 0L
read_messages <- function() {
  size <- file.size(from_browser)
  if (!is.na(size) && size > offset) {
    con <- file(from_browser, "rb")
    seek(con, offset)
    chunk <- readBin(con, "raw", size - offset)
    close(con)
    offset <<- offset + length(chunk)
    buffer <<- c(buffer, chunk)
  }
  out <- list()
  while (length(z <- which(buffer == as.raw(0)))) {
    msg <- rawToChar(buffer[seq_len(z[1] - 1)])
    buffer <<- buffer[-seq_len(z[1])]
    out[[length(out) + 1]] <- jsonlite::fromJSON(msg, simplifyVector = FALSE)
  }
  out
}
# Sends a command and returns its result; events that arrive meanwhile are kept in `events`.
cdp <- function(method, params = NULL, session = NULL, timeout = 60) {
  next_id <<- next_id + 1L
  msg <- list(id = next_id, method = method,
              params = if (is.null(params)) structure(list(), names = character(0)) else params)
  if (!is.null(session)) msg$sessionId <- session
  writeBin(c(charToRaw(as.character(jsonlite::toJSON(msg, auto_unbox = TRUE))), as.raw(0)), wcon)
  flush(wcon)
  t0 <- Sys.time()
  repeat {
    for (m in read_messages()) {
      if (identical(m$id, next_id)) {
        if (!is.null(m$error)) stop(method, ": ", m$error$message)
        return(m$result)
      }
      events[[length(events) + 1]] <<- m
    }
    if (difftime(Sys.time(), t0, units = "secs") > timeout) stop(method, ": no reply")
    Sys.sleep(0.02)
  }
}
wait_event <- function(method, timeout = 60) {
  t0 <- Sys.time()
  repeat {
    if (any(vapply(events, function(e) identical(e$method, method), logical(1)))) return(invisible())
    events <<- c(events, read_messages())
    if (difftime(Sys.time(), t0, units = "secs") > timeout) stop("no ", method, " event")
    Sys.sleep(0.02)
  }
}

target <- cdp("Target.createTarget", list(url = "about:blank"))$targetId
session <- cdp("Target.attachToTarget", list(targetId = target, flatten = TRUE))$sessionId
for (m in c("Page.enable", "Runtime.enable", "Log.enable")) cdp(m, session = session)
invisible(cdp("Emulation.setDeviceMetricsOverride", list(width = 1280, height = 900, deviceScaleFactor = 1,
                                                          mobile = FALSE), session = session))

probe <- "(() => {
  const h = document.querySelector('main h1') || document.querySelector('h1');
  const imgs = Array.from(document.querySelectorAll('main img'));
  const nav = document.querySelector('nav.navbar');
  return {heading: h ? h.textContent.trim() : '', images: imgs.length,
          broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.outerHTML.slice(0, 200)),
          navbar_display: nav ? getComputedStyle(nav).display : '',
          height: document.documentElement.scrollHeight};
})()"

failures <- character(0)
for (p in pages) {
  events <- list()
  url <- paste0("file://", file.path(site, p$file))
  cdp("Page.navigate", list(url = url), session = session)
  wait_event("Page.loadEventFired")
  Sys.sleep(1)  # late scripts and their errors
  events <- c(events, read_messages())
  res <- cdp("Runtime.evaluate", list(expression = probe, returnByValue = TRUE), session = session)$result$value
  errors <- unlist(lapply(events, function(e) {
    switch(e$method %||% "",
      "Runtime.exceptionThrown" = paste("exception:", e$params$exceptionDetails$exception$description %||%
                                          e$params$exceptionDetails$text),
      "Runtime.consoleAPICalled" = if (e$params$type %in% c("error", "assert"))
        paste("console.error:", paste(vapply(e$params$args, function(a) as.character(a$value %||% a$description %||% ""), ""), collapse = " ")),
      "Log.entryAdded" = if (identical(e$params$entry$level, "error"))
        paste("log:", e$params$entry$text, e$params$entry$url %||% ""),
      NULL)
  }))
  height <- min(as.numeric(res$height), 6000)
  shot <- cdp("Page.captureScreenshot", list(format = "png", captureBeyondViewport = TRUE,
                                             clip = list(x = 0, y = 0, width = 1280, height = height, scale = 1)),
              session = session)$data
  png_file <- file.path(shots, paste0(p$name, ".png"))
  writeBin(jsonlite::base64_dec(shot), png_file)
  problems <- c(
    if (!grepl(p$heading, res$heading, fixed = TRUE)) sprintf("main heading is '%s', expected '%s'", res$heading, p$heading),
    if (res$images < p$images) sprintf("%d images, expected at least %d", res$images, p$images),
    if (length(res$broken)) paste("images that did not load:", paste(unlist(res$broken), collapse = ", ")),
    if (!identical(res$navbar_display, "flex")) sprintf("navbar display is '%s': Bootstrap's styles did not apply", res$navbar_display),
    errors)
  cat(sprintf("%-26s %s; heading '%s', %d images, navbar %s -> %s\n", p$name,
              if (length(problems)) "FAIL" else "ok", res$heading, res$images, res$navbar_display, png_file))
  if (length(problems)) {
    cat(paste0("    ", problems), sep = "\n")
    failures <- c(failures, p$name)
  }
}
invisible(try(cdp("Browser.close", timeout = 5), silent = TRUE))
tools::pskill(as.integer(pid))
close(wcon)
n <- length(pages)
cat(sprintf("site test: %d of %d pages ok\n", n - length(failures), n))
quit(status = if (length(failures)) 1 else 0)
