#' A fairness audit of PCA in one call
#'
#' Fits every method in `methods` at every `k` from the data's group moments and collects what a
#' reviewer asks of a reduction that must serve every group: per group, the reconstruction
#' error, the marginal loss and the variance kept; per method and k, the largest marginal loss,
#' the gap between the groups, the variance lost against standard PCA (the price of fairness),
#' the solver's certificate or convergence state and the time taken; and, when an `outcome` is
#' given, how a model trained on the reduced data performs and how fair its predictions are on
#' held-out rows. [rmarkdown::draft()] with `template = "fair-pca-audit", package = "fairproj"`
#' turns an audit into a report (see the README).
#'
#' **What is fitted.** The rows are read once into [group_moments()] (once more for the
#' intervals' block moments); every fit is
#' `fair_pca(<moments>, k = , method = , center = , scale. = )`, so each row of the tables is
#' what a separate [fair_pca()] call gives, and the fits never touch the rows again (methods that
#' need the rows, such as `"inlp"`, cannot be audited). The fits are kept in `$fits`. Wide rows
#' may take the row route instead (below), whose fits are `fair_pca(x, group, ..., route = "rows")`.
#'
#' **Defaults.** `k` runs from 1 to four times the number of groups, at most `d - 1` (at `k = d`
#' every method keeps everything). Standard PCA (the reference of the price) and the fair
#' default of [fair_pca()] (`"minmax"`) are always audited, whatever `methods` says.
#'
#' **The price of fairness** of a method at k is the fraction of the total variance that
#' standard PCA keeps at k and the method does not, `var_kept(standard) - var_kept(method)`,
#' where `var_kept` is the variance of the reconstruction divided by the total variance (with
#' the centring and scaling of the fit, as [stats::prcomp()]). Standard PCA keeps the most
#' variance of any rank-k projection, so the price is never negative for projections.
#'
#' **Downstream checks.** With an `outcome`, the rows are split once into a training and a
#' held-out part (`test_fraction` of each group held out, at random; `seed` makes it
#' reproducible). Every method is refitted at every k on the training part's moments (the
#' split's moments come from the same one pass; their sum is the moments of all rows), a
#' generalised linear model ([stats::glm.fit()]) is trained on the training rows' k scores and
#' evaluated on the held-out rows:
#' * a binary outcome (logical, 0/1, or two levels; the second level is the positive class):
#'   logistic regression predicting 1 when the probability exceeds 1/2; `accuracy`, `error`
#'   (misclassification rate), and the demographic-parity and equal-opportunity gaps of
#'   [fairness_gaps()] (`dp_gap`, `eo_gap`: largest minus smallest group rate of positive
#'   predictions, and of true positives). `one_class` flags fits whose model predicts one class
#'   for every held-out row, whose gaps are then 0 by construction.
#' * a numeric outcome: least squares; `error` is the root mean squared error, `dp_gap` the
#'   largest minus the smallest group mean of the predictions (in the outcome's units) and
#'   `eo_gap` is `NA` (equal opportunity needs a positive class).
#'
#' The same model on all d columns and the trivial model (the training majority class, or the
#' training mean) are kept in `$downstream_reference`. Without rows (a `group_moments` input)
#' or without an outcome, `$downstream` is `NULL` and `$downstream_note` says why. A group
#' with fewer than 30 held-out rows makes the gaps noise: `reliable` is then `FALSE` in every
#' row of `$downstream`, and `print()` marks the gaps with `?` (hold out more rows with
#' `test_fraction`). With intervals, the held-out rows are resampled within each group (the
#' models stay fixed) and accuracy and error get percentile intervals; a gap gets the interval
#' of the gap itself, on its scale (0 or more, holding the estimate), built from the
#' differences between the groups that may give it as for the loss gap below: it starts at 0
#' (`dp_gap_distinct` or `eo_gap_distinct` `FALSE`, `~0` in `print()`) where the groups'
#' rates are not told apart at that level.
#'
#' **Intervals** (`level`, default 90%) accompany every method's per-group error and marginal loss,
#' the largest and smallest loss, the loss gap and ratio, the largest error and error gap, the
#' variance kept and the price of fairness, at the k in `interval_k` (by default `k_focus`, the k
#' that `print()` shows; `"all"` for every audited k, at `length(k)` times the cost). They come from
#' a bootstrap over blocks of rows that reads the rows once more, not once per replicate: a second
#' pass assigns each row to one of `blocks` blocks by a hash of its row number
#' (`floor(blocks * frac(i * 0.618...))`, no random numbers, so rows sorted by any variable still
#' spread evenly) and computes the moments of every (group, block) cell, which add up to the groups'
#' moments (the audit's own numbers come from the first pass, as the sum of many blocks loses digits
#' where a column's offset dwarfs its spread). A replicate draws each group's non-empty blocks with
#' replacement (as many as it has), adds their moments (moments add exactly) and refits every method
#' on them, which costs solver calls on d x d matrices. The interval of one quantity (a group's
#' error or loss, the variance kept, the price) is the `(1 - l) / 2` and `(1 + l) / 2` quantiles of
#' `replicates` replicates (type 6, whose expected content is `l` exactly where R's default holds
#' 0.88 at 100 replicates; the replicates use `seed`), shifted by the bootstrap's estimate of bias
#' (the replicates' mean minus the estimate): a percentile interval centred on the estimate rather
#' than on the replicates, which a group's loss under a subspace fitted to a sample puts above it
#' (the loss is biased upwards, and the replicates add that bias again). The level `l` at which the
#' replicates are read is `level` widened by a factor `qnorm(0.96) / qnorm(0.95)` (1.064) on the
#' normal scale, `2 * pnorm(1.064 * qnorm((1 + level) / 2)) - 1`: 0.92 at `level = 0.9`. Read at
#' `level` itself, the intervals covered 0.884 on average on 111 well-behaved synthetic designs
#' (their width varies from sample to sample, and a miss costs more than a wider interval gains);
#' read at 0.92 they covered 0.90-0.91, on those designs and on 20 drawn afterwards
#' (bench/audit-coverage.R). The variance kept is centred on the estimate less half of that bias, as
#' a subspace fitted to the sample keeps more of its variance than of the population's. The largest
#' and the smallest loss or error and the gaps between groups are not smooth where two groups are
#' close, and get intervals built from all groups' replicates together: the groups that may hold the
#' largest (those whose difference from the estimated largest has an interval reaching 0) bound it
#' between the largest of their simultaneous lower bounds and the largest of their upper bounds
#' (with one such group, its own interval; for standard PCA, whose groups' losses and errors are
#' smooth functions of the moments, the upper bound (the smallest's lower bound) is that of the
#' replicates' own largest (smallest) over those groups, shifted onto the estimate, as the largest
#' of their upper bounds covered above 95% in a sixth of the designs tried), and a gap, at least
#' every difference between a candidate for the largest and one for the smallest, lies between the
#' largest of those differences' simultaneous lower bounds (one-sided, at the level, a calibrated
#' choice; for the error gap the candidates of that lower bound are the groups not ruled out at a
#' tenth of the miss rate, Romano, Shaikh and Wolf's two-step choice, so that equal errors are not
#' read through the one pair the data picked) and the largest of their upper bounds, starting at 0
#' where one of them reaches 0. A
#' quantity that cannot be negative is kept above 0, and its interval starts at 0 where it is not
#' distinguishable from 0 at that level: for a loss, where the estimate lies within the noise floor
#' of a zero loss; for an error or a price, where the estimate is smaller than the interval's width.
#' A loss of 0 in the population is estimated above 0, by the gap between a fitted subspace and the
#' group's in-sample best, which grows with the number of directions estimated (k (d - k)), and its
#' replicates stay above 0 too; the floor is the `(1 + level) / 2` quantile, over the replicates, of
#' the loss on the sample's moments of the group's own best rank-k subspace fitted to the replicate
#' (in the sample's scaling). The largest loss starts at 0 only where every group's loss lies within
#' its own floor, the smallest loss where one group's loss does; the loss ratio then reaches `Inf`
#' (and 1 where every loss may be 0). An interval of a loss (a group's, the largest or the
#' smallest) that starts at 0 is an upper bound: it holds 0 whenever the data do not rule 0 out, so
#' where the loss is 0 in the population it covers more often than the level (97-100% of the
#' samples in bench/audit-coverage.R's full grid, groups from one population); it is flagged in
#' `tidy(matrix = "intervals")` (`reliable = FALSE` for that term only, the group's error interval
#' untouched) and marked `?` where `print()` shows the largest loss. The largest error's interval is
#' flagged likewise (that term only) where the error gap's interval starts at 0 among three or more
#' groups (at level 0.9; where m one-sided misses can add to more than the level allows): it is kept
#' no lower than each group's own interval, and where the groups' errors are equal the largest of
#' their lower ends misses more often than the level (0.72-0.83 at four and five groups drawn from
#' one population); read the groups' own intervals there. The bootstrap estimates the spread of each quantity as an
#' estimate of the same method applied to the population, and assumes that rows are independent
#' draws within each group (rows that come in clusters, such as repeated measures of one person,
#' need blocks made of whole clusters, which a hash of the row number does not give). The blocks are
#' the bootstrap's units, so its spread is estimated from about `blocks - 1` degrees of freedom per
#' group: with 25 blocks, 90% intervals of a group's error covered the truth 81-88% of the time at
#' 2,000 rows per group, with 100 blocks 87-90% (150 samples each); 50 is the default
#' (bench/audit-coverage.R measures coverage of the true values of synthetic populations). The block
#' moments take `blocks * m * d^2` doubles (times 2 with an outcome, for the held-out split);
#' `blocks` is lowered to fit 256 MB (option `fairproj.interval_memory`, in bytes), and below 10
#' blocks no intervals are computed and `$intervals$note` says so (at 3 groups, beyond about d =
#' 1000, or 750 with an outcome).
#'
#' In bench/audit-coverage.R (two groups of 50 to 10,000 rows, 500 samples each, d = 4, k = 2)
#' the 90% intervals of every group's loss, the largest loss, the loss gap and the price of
#' standard PCA, min-max and mean matching covered the truth in 86-95% of the samples, also where
#' the two groups' losses are close, and more often (up to 99%) where an interval starts at 0.
#' With both groups from one population (every loss 0) the intervals covered 0 in at least 98%
#' of the samples at d = 4, k = 2, and at d = 12, k = 4 (32 directions estimated) in 88-94%
#' (standard PCA) and 96-100% (min-max, and every gap and price); mean matching's are flagged
#' there (see below).
#'
#' An interval is flagged `reliable = FALSE` when its group has fewer than 50 rows or fewer
#' than 10 non-empty blocks, or when k is at least the rank of the group's covariance minus 1
#' (where that rank is below d: more columns than rows, or collinear columns), where the
#' replicates cannot show the spread. The intervals of methods that constrain the directions of
#' the group-mean differences (mean matching, `"cfpca"`) are also flagged where the data do not
#' fix those directions: where the span of the replicates' mean differences agrees with the
#' sample's by a median squared cosine below 0.8 (groups whose means differ little against
#' their spread; the method's losses then jump with the noise in the means, which the bootstrap
#' does not reproduce: with both groups from one population at d = 12, k = 4, mean matching's
#' losses were covered in 79-85% of the samples). Groups whose means differ clearly agreed by
#' 0.88 or more in 9 samples of 10 at 50 rows per group, and by 0.99 from 1,000 rows. A fair
#' method's fit depends on every group's moments, so where one group's interval of a fair method
#' is flagged, for any reason below too, every group's interval of that method and k is, with
#' that group's reason (with 60 rows beside 3,000, min-max's error of a large group covered
#' 0.57); standard PCA's are flagged group by group. A row of `table` is reliable when every group's interval
#' of that method and k is and its largest loss, loss gap, largest error and price have one.
#' `print()` and `summary()` show unreliable intervals in brackets marked `?`;
#' `tidy(matrix = "intervals")` has the flag in `reliable` and says in `note` where an
#' interval starts at 0. The interval columns of `table` and `groups_table` hold the same bounds.
#' Two more things the bootstrap cannot see are detected from the data, and flag the intervals
#' of the groups concerned (and every quantity of a method and k built on them) with a reason
#' in `reason` (of `table`, `groups_table` and `tidy(matrix = "intervals")`):
#' * *Heavy tails.* The sample covariance has a normal limit at the usual rate only where the
#'   rows' fourth moments are finite; without it no bootstrap interval is calibrated. From rows,
#'   the tail index of each group's squared standardised norms (Hill's estimator on their
#'   largest `sqrt(n)`, at least 10; about `nu / 2` for a multivariate t with `nu` degrees of
#'   freedom, large for Gaussian or bounded columns) below 2 flags the group ("heavy tails").
#'   From rows or block moments, the kurtosis `kappa` over the group's blocks of their
#'   standardised traces gives the degrees of freedom `2 J / (kappa - 1)` on which the width of
#'   the intervals rests (about `J`, the number of blocks, for Gaussian rows); where a t
#'   interval on so few degrees of freedom would cover less than `level - 0.05`, the group is
#'   flagged too (its spread rests on few blocks). Milder tails (finite fourth moments, heavy
#'   eighth) leave the intervals too narrow: from rows or block moments, the spread of the
#'   blocks' covariances, whitened by the group's, against what Gaussian blocks of the same
#'   sizes give (about 1 for Gaussian rows, `(nu - 2) / (nu - 4)` for a t with `nu` degrees of
#'   freedom) above 1.5, and clear of 1 by 4 of its standard errors for Gaussian rows, flags the
#'   group ("the spread of its blocks' covariances is ... times a Gaussian's").
#' * *Near-ties.* Where the k-th and (k + 1)-th eigenvalues of the pooled covariance are close,
#'   sample eigenvalues repel and the bootstrap, starting from the sample's wider gap, finds
#'   standard PCA's subspace more stable than it is. Where the gap, less the bias its replicates
#'   show, is negative (the data do not tell the two eigenvalues apart) standard PCA's intervals
#'   at that k are flagged ("near-tie"). A wider rule (flagging gaps below 0.75 (`sqrt(k) +
#'   sqrt(d - k)`) times the replicates' sd) flagged 40-86% of the samples of populations whose
#'   intervals held and was dropped (bench/audit-coverage.R, run "2026-12-04d"); close to a tie
#'   standard PCA's group errors can still be covered less often than stated, unflagged (three
#'   groups of 1,000 rows, d = 12, k = 3, a pooled gap of 1.3 of its noise sd: 73-88%).
#'   Where a block of pooled eigenvalues around k is tied within noise (groups from one
#'   population whose columns `scale. = TRUE` makes isotropic), standard PCA's variance kept is
#'   the top k of repelled sample eigenvalues and its errors are optimistic by a bias the
#'   bootstrap sees only in part; where the part it misses (found as for a group's own near-tie,
#'   below, on the pooled spectrum) exceeds one sd of the variance kept's replicates, standard
#'   PCA's intervals at that k are flagged ("eigenvalues around k of the pooled covariance are
#'   tied within noise"): the data have no k-dimensional structure to report on.
#' * *No preferred direction.* Where every group's covariance, in the units the fits see (after
#'   `scale.`), is spherical within noise (John's test: `d tr(S^2) / tr(S)^2 - 1` times
#'   `(n_g - 1) d / 2`, chi-squared with `d (d + 1) / 2 - 1` degrees of freedom) and the group
#'   means are equal within noise (their spread against the within-group variance, chi-squared
#'   with `d (m - 1)` degrees of freedom), every p-value above 0.01, every subspace fits the
#'   population equally well: each method's subspace is set by the noise and its variance kept
#'   and errors are optimistic by more than the bootstrap sees. Every method's intervals are
#'   flagged then ("no direction stands out"), as with uncorrelated columns scaled to unit
#'   variance, in groups drawn from one population: there is nothing for a projection to keep.
#' * *Bias the bootstrap cannot correct.* A fitted subspace's errors are optimistic and a small
#'   loss is biased upwards, by amounts that grow with the directions estimated per row,
#'   `k (d - k) / n`. A group with fewer than 25 rows per direction (`n < 25 k (d - k)`) has its
#'   intervals flagged ("too few rows for the directions estimated ... fewer than 25 per
#'   direction"): add rows or lower k. Every interval is centred on the estimate: the
#'   replicates' quantiles are shifted by the bootstrap's estimate of bias `b` (the replicates'
#'   mean minus the estimate), and not by `b` again (centring on the bias-corrected estimate where
#'   `|b|` exceeded half the replicates' sd covered less on every set of designs it was judged on:
#'   its centres jump between samples), except where a group has 20 to 25 rows per direction:
#'   there its bias is of the order of the width, and its (flagged) errors and losses (for a
#'   fair method, every group's, as its fit depends on them all, and the method's variance kept
#'   and price)
#'   are centred on the bias-corrected estimate; and min-max's errors and losses, whose equalised
#'   optimum sits above its truth by a bias the replicates show (1.2 of its sds at three groups
#'   of 1,000 rows, d = 12, k = 3), which are centred on the estimate less half of `b` (half was
#'   calibrated and judged on designs of `bench/audit-coverage.R`; all of it overshot). The
#'   bootstrap misses a share of the bias of the order of
#'   `k (d - k) / n`; where `|b| k (d - k) / n` exceeds half the replicates' sd (an interval that
#'   far off centre covers less than 86% at 90%), the interval is flagged ("too few rows for
#'   the directions estimated").
#' * *A group's own near-tie at k.* A loss is the group's error at the fitted subspace minus its
#'   own best rank-k error, whose in-sample optimism (the sum of the group's top k eigenvalues is
#'   biased upwards) the bootstrap finds at the sample's eigenvalues. Where the group's own
#'   k-th and (k + 1)-th eigenvalues are close (with `scale. = TRUE` the columns' scaling can
#'   flatten a group's spectrum into a near-tie), the sample's eigenvalues repel and the
#'   bootstrap sees only part of that bias. The part it misses is found by simulation on the
#'   group's spectrum (Gaussian sample covariances of its rows from a population spectrum moved
#'   until their mean eigenvalues equal the sample's, at most 10 eigenvalues either side of k),
#'   and the intervals of that group's loss (and, for min-max, whose subspace depends on the
#'   best errors, of every group's loss and error held by its dual weights) are moved by it;
#'   the estimates are not. For mean matching the bias of the group's best error that the
#'   bootstrap does see is taken off its losses there once more (its losses of such a group
#'   otherwise sat too high: 0.76-0.86 coverage on some designs). Standard PCA's loss of such a
#'   group loses its own seen bias (the replicates' mean of the loss less the estimate: the best
#'   error's and the error's together) only where the pooled covariance's k-th and (k + 1)-th
#'   eigenvalues are well apart (their gap, less its replicates' bias, beyond 2 of its
#'   replicates' sds; all of it beyond 3, in proportion between): near a pooled tie the error's
#'   own optimism is itself partly unseen and the correction overshoots. Option
#'   `fairproj.audit_own_tie = FALSE` turns this off.
#' * *A fair method's fit at a kink or near-tie.* Min-max and mean matching are not smooth
#'   functions of the moments where groups' losses tie or where the matrix their solution
#'   diagonalises (min-max's dual-weighted sum of the group covariances, tied at k by
#'   construction; mean matching's covariance off the mean differences) has a near-tie: there the
#'   bootstrap is not valid, and its replicates sit off the estimate. For each fair method and k
#'   the largest `|b| / s` over its groups' errors and losses and its variance kept (`b` the
#'   bootstrap's bias, `s` the replicates' sd) above 2 flags every interval of that method and k
#'   ("kink or near-tie"). The threshold was chosen on designs of bench/audit-coverage.R that
#'   were not then used to judge it (its header lists both sets): it flagged min-max in nearly
#'   every sample of two groups drawn from one isotropic population (where its subspace is not
#'   determined and its errors' intervals covered 30-60%), and fewer than 1 in 100 intervals of
#'   the fair methods' cells that cover within 85-95%.
#'
#' *What the intervals cannot do.* A flag says an interval is not to be trusted; where no flag
#' fires, the stated level is still not guaranteed. On 40 well-behaved designs drawn after the last
#' calibration of the levels (d = 6-12, 2-5 groups of 1,000-3,000 rows, Gaussian and Poisson
#' columns, distinct spectra and ties; 100 samples each) 82% of the (design, method, quantity) cells
#' covered within 85-95% at level 0.9, 5% less and 13% more (among them min-max's loss gap and ratio
#' where the population's losses tie, whose interval starts at the truth). On 180 more, drawn after
#' the rule that flags those gaps (above) was written (20 of them judged it): 83% within, 5% less,
#' 10% more (their mean coverage is 0.91, and 100 samples put a true 0.91 above 0.95 about one time
#' in twenty; the largest and smallest loss and the gaps, conservative by construction, up to 0.95
#' on average) and 3% flagged, min-max's gap and ratio (3.6% of the intervals; 10.6% in one design,
#' three groups at d = 8, k = 1, where standard PCA's pooled near-tie was flagged in a fifth of the
#' samples). The gaps' intervals, from simultaneous two-sided bounds until 2026-12-05, then took
#' one-sided simultaneous lower bounds and each difference's own upper bound: on 40 designs drawn
#' afterwards 84% within, 4.5% less, 8% more and 3% flagged (the loss gap at three to five groups
#' 0.95 -> 0.93 on average). Standard PCA's largest and smallest loss and largest error then took
#' their outer end from the replicates' own largest: on 40 more designs drawn afterwards 85% within,
#' 4.3% less, 7.3% more and 3.4% flagged. On 16 more drawn on 2026-12-06, after the last rule
#' (d = 4-12, 2-5 groups of 1,000-3,000 rows, Gaussian and Poisson columns, distinct spectra and
#' ties; 60 samples each, so a cell that covers 0.90 reads outside 85-95% about one time in eight
#' by chance): 78% within, 8.4% less, 11.1% more and 2.8% flagged (at most 5.2% of any design's
#' intervals), the unflagged intervals covering 0.906 together. Mean matching covers less where the matrix it diagonalises
#' has eigenvalues k and k + 1 within about 1.5 noise sds of each other in the population (its
#' subspace turned within their plane, unflagged: 0.58-0.82 for some groups' errors and losses at
#' four groups of 1,000-3,000 rows, d = 10, k = 2; 46 of mean matching's 101 cells below 0.85 in 140
#' of those designs sat in the 12 with such a tie). In bench/audit-coverage.R (its results in
#' bench/audit-coverage.csv; 30 samples per design, so a cell's coverage carries a standard error of
#' about 0.055) the heavy-tail and rows-per-direction rules flag t with 5 degrees of freedom,
#' log-normal columns and 100 rows per group at d = 12, k = 3 in every sample, where intervals
#' reported reliable had covered 33-84%. Intervals reported reliable still covered less than 85%
#' where the matrix a fair method diagonalises has a near-tie at k whose replicates are only mildly
#' biased (five groups of 1,000 rows, d = 12, k = 2: min-max 74-82%, mean matching 68-84%, whose
#' estimates sit up to 0.95 sd off the truth and whose bootstrap sees a fifth of that), and
#' bias-corrected percentile (BC) intervals did worse. The correction for a group's own near-tie
#' lifted min-max's losses at two groups of 3,000 rows, d = 12, k = 3, from 66% to 82% and its
#' largest loss from 24% to 82%; its largest error covers 80%. A group below min-max's largest loss
#' in the population but tied with it in the fit (its loss lifted by noise and its own near-tie's
#' optimism) has a loss interval that misses (three groups of 1,000 rows, d = 8-10, k = 2: such fits
#' in 21-37% of the samples, covered in 0-14% of them and in 74-84% of the others, where its own
#' near-tie's optimism remains; its loss covered 56-62% overall, unflagged). Read the CSV's coverage
#' for designs near yours; beyond d = 12 treat the intervals of min-max and mean matching as rough.
#'
#' The intervals are made consistent with one another and with their estimates: every interval
#' holds its estimate; the largest loss (error) starts no lower than any group's loss (error)
#' interval and ends no higher than the highest of them, the smallest loss likewise; the loss
#' gap and ratio lie within what the largest and smallest allow; where the loss gap's interval
#' starts at 0 (losses the data do not tell apart) the ratio's starts at 1; where the groups'
#' loss intervals are centred on bias-corrected estimates (above), the ratio's replicates are
#' computed from loss replicates moved with them. The loss ratio's interval is the same shifted
#' percentile interval on the log scale, centred on the ratio of the groups' centred losses (its
#' replicates are skewed and sit above it; where a replicate's smallest loss is 0, the ratio's
#' replicates' plain quantiles). A quantity 0 by construction,
#' min-max's loss gap between two groups (it equalises their losses), is reported as 0 and its
#' ratio as 1, with no interval. With three or more groups min-max equalises the losses of the
#' groups its optimum keeps active, and its gap has a kink at 0: where the population's optimum
#' keeps them all (gap 0) a sample's fit may leave one group below the others, a margin the
#' bootstrap takes for the truth. Its gap's interval starts at 0 where the estimate is below the
#' interval's width (as an error's does), and where it starts at 0 the gap's and the ratio's
#' intervals are flagged (`reliable = FALSE` for those two terms in `tidy(matrix =
#' "intervals")`, "?" on the printed ratio): the losses may all be equal, a gap at its bound 0
#' that an interval holding its estimate covers always, not at the level; read them as upper
#' bounds. For each fair method, `max_loss_change` (in
#' `tidy(matrix = "intervals")`; its ends in `table`) is its largest loss minus standard PCA's
#' at the same k, with an interval from the same replicates (paired): below 0 where the data
#' show that the method lowers the worst-off group's loss; `print()`, `summary()` and the
#' report's "Reading" say so, with the interval of its price. `$intervals$mc_error` gives the
#' Monte-Carlo error of the interval ends (the standard error of a quantile of `replicates`
#' replicates) as a share of the width: its median and largest over the groups' errors and
#' losses and the variance kept; it halves with four times the replicates. Option
#' `fairproj.check_audits = TRUE` makes `fair_audit()` check these rules on every audit it
#' returns and stop on a break (the package's tests set it).
#' Input from
#' moments gives intervals only when the moments carry block moments, as
#' `group_moments(x, group, blocks = 50)` computes them from rows in memory, from files
#' ([group_moments_files]) and from databases ([group_moments_db], stream route); `c()` and `+`
#' keep them when every piece carries blocks of the same count. Without them there are no
#' intervals, and `$intervals$note` says so.
#'
#' **Memory and wide data.** Every fit is from d x d moments: the audit holds the groups'
#' moments (m d x d matrices, four times that with an outcome), min-max's group covariances and
#' the solvers' work matrices, about `8 d^2 (m + m + 6)` bytes without an outcome, and the
#' intervals' block moments (above) (at n = 2,000,
#' d = 3,000, two groups: 151 s and 612 MB beyond the data on a shared 2-core machine, without
#' intervals, whose block moments do not fit their budget at that d; with an outcome at d = 2,000
#' and three groups, 260 s and 653 MB). Rows in memory are read where they are, not copied
#' (unless a column's magnitude lies beyond 2^400 or below 2^-400, which the moments rescale on a
#' copy): beyond these the audit holds a few vectors of n values (the rows' groups and blocks,
#' and their squared norms for the tail index). With an outcome, the held-out checks add what their models
#' need: the reference model on all d columns is fitted by `glm.fit()` (binary outcome) or
#' `lm.fit()` on the training rows, which copy them a few times, and the downstream intervals
#' hold each held-out row's resample counts (n_held x `replicates` doubles). An audit whose estimate
#' exceeds the memory available (`MemAvailable` on Linux, or the option
#' `fairproj.audit_memory`, in bytes) stops before reading any moments with an error of class
#' `fairproj_memory_error` naming `x`, the memory it would need and what to do: audit fewer
#' columns, or audit by the row route, which forms no d x d matrix.
#'
#' **The row route** (`route`). From rows, the audit may fit every method by the row route of
#' [fair_pca()] (Lanczos on the rows, and each group's n_g x n_g Gram matrix where it has fewer
#' rows than columns; issue #48): the rows are prepared once (their per-group means and sums of
#' squares, and one copy that the products read) and every fit, its group errors, best errors
#' and losses, its variance kept (one product of the rows with its basis) and the downstream
#' models on the training rows come from products with the rows, without a d x d matrix. The
#' tables are those of the moments route up to the eigensolvers' precision (1e-8 of the total
#' variance in the tests). It serves the methods the row route serves, `"standard"`, `"mean"`
#' (its basic variant) and `"minmax"` (`solver = "exact"`), and groups that are not
#' intersectional. Its intervals are the moments route's, computed from the rows: the same
#' blocks (by row number), the same draws for the same `seed`, each replicate's fits from the
#' rows weighted by the count of their block in the resample (products with the weighted rows,
#' the weighted centring a rank-one correction, no copy of the rows and no d x d matrix), and
#' the same diagnostics: the noise floor, near-tie and kink checks from the replicates' fits on
#' the rows; the tail index, the blocks' degrees of freedom and their whitened spread from each
#' group's rows (its n_g x n_g Gram matrix, or where the group has more rows than columns its
#' d x d cross-product, the smaller of the two). Intervals, flags and reasons equal the moments
#' route's (1e-8 of the total variance in the tests; min-max to its certified gap), so no
#' check is dropped. A replicate costs about one fit of each method at the interval's k on the
#' rows, plus each group's top k: at d = 10,000 min-max's replicates dominate (see
#' bench/audit-wide.R). `route = "auto"` (the default) takes it from 500 columns on when
#' every audited method is served and either the moments route's d x d matrices exceed the
#' memory available, or the moments route would give no intervals (`level = NULL`, or block
#' moments beyond their budget) and the row route's estimated cost at the largest k is less than
#' half the moments route's (as [fair_pca()] chooses); an audit whose moments route fits and
#' gives intervals keeps it. `route = "moments"` or `"rows"` forces a route; the result of a
#' row-route audit has `route = "rows"`, and `print()` shows the call of its fits. Beyond the
#' data it holds one copy of the rows that the products read (with an outcome also the training
#' rows and their copy), each small group's Gram matrix, and with intervals one group's
#' diagnostics at a time (its Gram or cross-product, and its whitened rows, n_g x min(n_g, d)),
#' checked against the memory available as above; the products of the rows with the directions
#' a fit works in (n x r, r from k up to the directions min-max's column generation collects)
#' come and go. At n = 2,000, two groups and the defaults (bench/audit-wide.R, shared 2-core
#' machine): d = 3,000 in 45 s and 70 MB beyond the data (the moments route: 151 s, 612 MB),
#' d = 10,000 in 153 s and 128 MB beyond the data.
#'
#' **Progress** over the fits is shown in interactive sessions (`progress = TRUE` forces it, for
#' instance while knitting a report, where it goes to the console with the chunk option
#' `message = NA`). Convergence warnings of the fits are collected and given once per kind at
#' the end (class `fairproj_convergence_warning`, with the number of fits); every fit's state
#' is in `$table$state`.
#'
#' @param x A numeric matrix or data.frame (rows are observations), a one-sided formula with
#'   `data` (as in [fair_pca()]), or a [group_moments()] object from any source.
#' @param group Group labels, one per row (a vector; a data.frame of several attributes, whose
#'   non-empty cells are the groups, see [intersect_groups()]; or, for a data.frame `x` and in
#'   the formula interface, the name of a column). Not used with a `group_moments` object.
#' @param k The dimensions to audit: whole numbers between 1 and the number of columns; `NULL`
#'   for the default range (see Details).
#' @param methods [fair_pca()] methods that work from moments ([fairproj_methods()]);
#'   `"standard"` and `"minmax"` are added when missing.
#' @param outcome Optional binary or numeric outcome, one per row (or, for a data.frame `x` and
#'   in the formula interface, the name of a column, which is then not a feature), for the
#'   downstream checks. It must have no missing values.
#' @param ... Arguments of single methods, each a named list named after its method, e.g.
#'   `robust = list(alpha = 0.1)`.
#' @param center,scale. Centring and scaling of every fit, as in [fair_pca()], except that
#'   `scale. = TRUE` is the default (each column divided by its standard deviation, as in the
#'   report template): unscaled, the audit of columns in different units measures mostly the
#'   column with the largest variance. `scale. = FALSE` audits the columns in their units.
#' @param test_fraction Fraction of each group's rows held out for the downstream checks.
#' @param seed Optional integer: the held-out split and the bootstrap replicates of the
#'   intervals are drawn after `set.seed(seed)` and the global random-number state is restored
#'   afterwards.
#' @param level Confidence level of the intervals, in (0, 1); `NULL` for none.
#' @param replicates Number of bootstrap replicates of the intervals (each refits every method
#'   at every k of `interval_k`); 0 for no intervals, else between 20 and 100000. The default
#'   is the option `fairproj.replicates`, else 100. An audit whose fits (one per method and k,
#'   and one per method, replicate and k of `interval_k`) are estimated to take longer than the
#'   time limit (`options(fairproj.time_limit = )`, in seconds, default 60; with hundreds of
#'   groups, where min-max, Pareto and robust fits cost seconds each) is refused up front with an
#'   error of class `fairproj_cost_error` naming `replicates`.
#' @param blocks Number of blocks of rows per group that the bootstrap resamples (10 to 1000).
#' @param interval_k The dimensions that get intervals: whole numbers among the audited `k`, or
#'   `"all"`; `NULL` for `k_focus`.
#' @param progress `TRUE` or `FALSE` to show or hide progress; `NULL` shows it in interactive
#'   sessions.
#' @param route How the fits are computed from rows: `"auto"` (the default) chooses, `"moments"`
#'   fits every method from the groups' d x d moments, `"rows"` by the row route of [fair_pca()],
#'   without d x d matrices and without intervals (see Details). From a `group_moments` object
#'   only `"moments"` (the default there) or `"auto"`.
#' @param formula,data The formula interface: a one-sided formula naming the feature columns of
#'   the data.frame `data` (`~ .` for all but the group and outcome columns), as in
#'   [fair_pca()]; rows with missing features are dropped by `na.action`.
#' @param na.action As in [stats::model.frame()] (default `getOption("na.action")`).
#' @return An object of class `fairproj_audit`: a list with
#'   * `table`: one row per method and k: `method`, `k`, `rank` (of the reconstruction: above
#'     k for Samadi et al.'s affine map), `var_kept`, `price`, `max_loss`, `min_loss`,
#'     `loss_gap` (largest minus smallest marginal loss), `loss_ratio` (largest over smallest;
#'     1 when every loss is 0, `Inf` when only the smallest is, to 1e-10 of the largest error),
#'     `worst_group` (the group with the largest loss), `max_error`, `error_gap`, `converged`
#'     (`NA` for closed forms), `certificate` (duality gap, or gap, of certified solvers, in the
#'     units of the losses), `state` (in words: `"not fitted"` where the method cannot reach
#'     that k, e.g. mean matching beyond its feasible dimension), `seconds` (of the fit) and
#'     `note` (the fit's first warning, or why it was not fitted);
#'   * `groups_table`: one row per method, k and group: `n`, `error` (average squared
#'     reconstruction error of the group about its own mean), `best` (the group's own best
#'     rank-k error), `loss` (marginal loss, `error - best`), `var_explained`;
#'   * with intervals, both tables also hold `<quantity>_low` and `<quantity>_high` for each
#'     quantity above (`NA` at the k without intervals) and `reliable` (see Details);
#'     `intervals`: a list with `level`, `replicates`, `k` (the dimensions with intervals),
#'     `method` (`"bias-corrected percentile"`), `blocks` (the non-empty blocks of each group),
#'     `failed` (the replicates in which a fit failed with a numerical error; their values are
#'     left out, and `print()` says how many), `mc_error` (the Monte-Carlo error of the interval
#'     ends as a share of the width: median and largest, see Details) and `note` (why there are
#'     none); both tables also hold `reason` (why an interval is flagged, `NA` where it is not),
#'     and `table` the ends `max_loss_change_low` and `max_loss_change_high`;
#'   * `downstream`: one row per method and k (`n_test`, `accuracy`, `error`, `dp_gap`,
#'     `eo_gap`, `one_class`, `reliable`; with intervals also `<quantity>_low`,
#'     `<quantity>_high`, `dp_gap_distinct` and `eo_gap_distinct`) or `NULL`;
#'     `downstream_reference`, `downstream_note`;
#'   * `groups` (levels, sizes, share and `small`: fewer than 5 rows per column), `k`,
#'     `k_focus` (the smallest audited k at which standard PCA keeps 80% of the variance, or
#'     the largest audited k), `methods`, `n`, `d`, `colnames`, `scaled`, `centered`,
#'     `outcome` (a list: `name`, `type`, `n_train`, `n_test`, `n_test_groups` (held-out rows
#'     by group), `n_train_groups` (training rows by group), `min_test_rows` (the held-out rows,
#'     and the training rows, a group needs for its downstream rows not to be flagged, 30),
#'     `test_fraction`, `test_rows`
#'     (the held-out rows, numbered after rows with missing values are dropped), `positive`
#'     and `positive_rate` or `mean`; or `NULL`), `n_dropped`
#'     (rows dropped for missing feature values by the formula interface), `dropped` (rows
#'     dropped there for a missing group label), `fits` (the fits, as
#'     `fits[[method]][[as.character(k)]]`), `time` (seconds in all), `call`.
#' @seealso [summary.fairproj_audit()], [plot.fairproj_audit()], [fair_pca()],
#'   [fairness_gaps()].
#' @examplesIf requireNamespace("MASS", quietly = TRUE)
#' # birth weights of 189 babies, with the mother's race as the group
#' bw <- within(MASS::birthwt, race <- factor(race, 1:3, c("white", "black", "other")))
#' a <- fair_audit(~ age + lwt + smoke + ptl + ht + ui + ftv, data = bw, group = race,
#'                 k = 1:3, outcome = low, seed = 1)
#' a
#' plot(a)
#' # from moments only: no downstream checks
#' m <- group_moments(bw[c("age", "lwt", "ptl", "ftv")], bw$race)
#' fair_audit(m, k = 1:2)$downstream_note
#' @export
fair_audit <- function(x, ...) {
  if (!nargs()) fp_check_given("x")
  if (missing(x) && "formula" %in% ...names()) {  # see fp_formula_first()
    call <- fp_formula_first(sys.call(), ...elt(match("formula", ...names())))
    if (!is.null(call)) return(eval(call, parent.frame()))
  }
  UseMethod("fair_audit")
}

#' @rdname fair_audit
#' @export
fair_audit.default <- function(x, group, k = NULL, methods = c("standard", "minmax", "mean"), outcome = NULL,
                               ..., center = TRUE, scale. = TRUE, test_fraction = 0.3, seed = NULL,
                               level = 0.9, replicates = getOption("fairproj.replicates", 100), blocks = 50,
                               interval_k = NULL, progress = NULL, route = "auto") {
  call <- fp_generic_call(match.call(), "fair_audit")
  # `outcome` may name a column of a data.frame x, which is then not a feature; the rest is the
  # preamble of every door that takes rows (NA/Inf are left to the C++ pass)
  outcome <- fp_force_column(outcome, substitute(outcome), x, "outcome")
  if (is.data.frame(x)) {
    oc <- fp_audit_column(outcome, x, NULL, "outcome", data_arg = "x")
    outcome <- oc$value
    if (!is.null(oc$name)) x <- fp_drop_column(x, oc$name, "outcome", "x")
  }
  door <- fp_door_rows(x, group, substitute(group), min_levels = 2L, check_finite = FALSE, set_names = FALSE)
  fp_audit_methods(methods, NULL, ...names(), ...length())
  fp_audit_run(fp_audit_spec(list(x = door$xm, g = door$g), outcome = outcome, k = k, methods = methods, margs = list(...),
                             center = center, scale. = scale., test_fraction = test_fraction, seed = seed,
                             progress = progress, level = level, replicates = replicates, blocks = blocks,
                             interval_k = interval_k, route = route, call = call))
}

#' @rdname fair_audit
#' @export
fair_audit.formula <- function(formula, data = NULL, group, k = NULL, methods = c("standard", "minmax", "mean"),
                               outcome = NULL, ..., na.action) {
  call <- fp_generic_call(match.call(), "fair_audit")
  fp_check_formula_door(formula, missing(group), outcome = TRUE)
  if (!is.data.frame(data)) fp_abort("must be a data.frame (the formula interface needs one)", "data")
  y <- fp_audit_column(substitute(outcome), data, parent.frame(), "outcome")
  if (!is.null(y$name)) {
    if (y$name %in% all.vars(formula)) formula <- fp_formula_drop(formula, y$name, "outcome")
    data <- fp_drop_column(data, y$name, "outcome", "data")
  }
  fd <- fp_formula_data(formula, data, substitute(group), parent.frame(),
                        na.action = if (!missing(na.action)) na.action, min_cols = 2L)
  yv <- y$value
  if (!is.null(yv) && !is.null(fd$na.action)) {
    if (length(yv) != nrow(data)) {
      fp_abort(sprintf("has length %d but `data` has %d rows", length(yv), nrow(data)), "outcome")
    }
    yv <- yv[-as.integer(fd$na.action)]
  }
  res <- fair_audit.default(fd$x, fd$group, k = k, methods = methods, outcome = yv, ...)
  res$call <- call
  res$group_name <- fd$group_name
  if (!is.null(res$outcome)) res$outcome$name <- y$name
  # rows left out by na.action: with missing feature values (`n_dropped`) and with a missing
  # group label (`dropped`), as the door counted them
  res$n_dropped <- if (is.null(fd$dropped)) length(fd$na.action) else fd$dropped$features
  res$dropped <- if (is.null(fd$dropped)) 0L else fd$dropped$group
  res
}

#' @rdname fair_audit
#' @export
fair_audit.group_moments <- function(x, group = NULL, k = NULL, methods = c("standard", "minmax", "mean"),
                                     outcome = NULL, ..., center = TRUE, scale. = TRUE, seed = NULL, level = 0.9,
                                     replicates = getOption("fairproj.replicates", 100), interval_k = NULL, progress = NULL,
                                     route = "moments") {
  call <- fp_generic_call(match.call(), "fair_audit")
  if (fp_match_arg(route, c("auto", "moments", "rows"), "route") == "rows") {
    fp_abort("= \"rows\" needs the rows, and `x` holds only their moments: use route = \"moments\" or audit the rows", "route")
  }
  fp_door_moments(x, group, min_levels = 2L)
  if (!is.null(outcome)) {
    fp_abort("needs the data rows: a group_moments object has none, so the downstream checks cannot run; give the rows or drop `outcome`",
             "outcome")
  }
  fp_audit_methods(methods, NULL, ...names(), ...length())
  fp_audit_run(fp_audit_spec(x, outcome = NULL, k = k, methods = methods, margs = list(...), center = center,
                             scale. = scale., test_fraction = 0.3, seed = seed, progress = progress, level = level,
                             replicates = replicates, blocks = 50L, interval_k = interval_k, route = "moments", call = call))
}

# A column of `data` named by an unquoted name (when `env` is given, `expr` is unevaluated)
# or a string, or a vector: list(name, value).
fp_audit_column <- function(expr, data, env, arg, data_arg = "data") {
  if (is.null(expr)) return(list(name = NULL, value = NULL))
  if (!is.null(env) && is.name(expr) && as.character(expr) %in% names(data)) {
    return(list(name = as.character(expr), value = data[[as.character(expr)]]))
  }
  v <- if (is.null(env)) expr else fp_eval_column(expr, data, env, arg, data_arg)
  if (is.character(v) && length(v) == 1L && !is.na(v) && nrow(data) != 1L) {
    if (!v %in% names(data)) fp_column_missing_error(v, data, arg, data_arg)
    return(list(name = v, value = data[[v]]))
  }
  list(name = NULL, value = v)
}

# The outcome as list(type = "binary" | "numeric", y (0/1 or numeric), positive (label)).
fp_audit_outcome <- function(outcome, n) {
  outcome <- fp_int64_value(outcome)
  if (length(outcome) != n) fp_abort(sprintf("has length %d but the data have %d rows", length(outcome), n), "outcome")
  if (anyNA(outcome)) fp_abort(sprintf("contains %d missing value(s); remove those rows first", sum(is.na(outcome))), "outcome")
  if (is.numeric(outcome) && !all(outcome %in% c(0, 1))) {
    if (any(!is.finite(outcome))) fp_abort("contains infinite values", "outcome")
    if (length(unique(outcome)) < 2L) fp_abort("is constant: there is nothing to predict", "outcome")
    return(list(type = "numeric", y = as.numeric(outcome), positive = NULL))
  }
  if (!(is.numeric(outcome) || is.logical(outcome) || is.factor(outcome) || is.character(outcome))) {
    fp_abort(sprintf("must be a binary or numeric vector, not '%s'", class(outcome)[1L]), "outcome")
  }
  f <- as.factor(outcome)
  if (nlevels(f) != 2L) {
    fp_abort(sprintf("must be binary (two values) or numeric; it has %d value(s)", nlevels(f)), "outcome")
  }
  list(type = "binary", y = as.integer(f == levels(f)[2L]), positive = levels(f)[2L])
}

# The audited dimensions: the given ones checked, or 1, ..., min(4 m, d - 1).
fp_audit_k <- function(k, d, m) {
  if (is.null(k)) return(seq_len(max(1L, min(4L * m, d - 1L))))
  if (!is.numeric(k) || !length(k) || anyNA(k) || any(!is.finite(k)) || any(k != round(k)) || any(k < 1) ||
      any(k > d)) {
    fp_abort(sprintf("must be whole numbers between 1 and the number of columns (%d)", d), "k")
  }
  sort(unique(as.integer(k)))
}

# The audited methods; `margs` the further arguments (a list, or NULL to check only their names
# `nm` and count `n` before they are evaluated).
fp_audit_methods <- function(methods, margs, nm = names(margs), n = length(margs)) {
  if (!is.character(methods) || !length(methods) || anyNA(methods)) {
    fp_abort("must be a character vector of fair_pca() methods; see fairproj_methods()", "methods")
  }
  for (m in methods) fp_check_method(m, "pca", "methods")
  methods <- unique(c("standard", "minmax", methods))
  if (n > 0L) {
    if (is.null(nm) || any(nm == "")) {
      fp_abort("must be named after methods, each a list of that method's arguments (e.g. robust = list(alpha = 0.1))", "...")
    }
    bad <- setdiff(nm, methods)
    if (length(bad)) {
      fp_abort(sprintf("names %s, which %s not among the audited methods (%s)", paste(shQuote(bad), collapse = ", "),
                       if (length(bad) > 1L) "are" else "is", paste(methods, collapse = ", ")), "...")
    }
    if (!is.null(margs) && !all(vapply(margs, is.list, logical(1)))) {
      fp_abort("must give each method's arguments as a list (e.g. robust = list(alpha = 0.1))", "...")
    }
  }
  methods
}

# The specification of an audit, built once by a door from its arguments, checked here, and
# read by name by fp_audit_run() and the steps after it. `source` is the rows (list(x = a
# matrix, g = their groups as a factor)) or a group_moments object; the class says which:
# "fairproj_audit_rows" (the audit reads the rows: moments, block moments, held-out checks) or
# "fairproj_audit_moments" (moments given: no rows, no downstream checks). Fields: `x`, `g`
# (rows only), `moments` (moments only), `outcome` (fp_audit_outcome(), or NULL), `k` (the
# audited dimensions), `d`, `m` (groups), `methods`, `margs`, `center`, `scale.`,
# `test_fraction`, `seed`, `show` (progress), `intervals` (fp_audit_check_intervals() with `k`
# from `interval_k`, or NULL), `route` ("moments", or "rows": the fits of the row route,
# fp_audit_route()) and `call`.
fp_audit_spec <- function(source, outcome, k, methods, margs, center, scale., test_fraction, seed, progress, level,
                          replicates, blocks, interval_k, route = "auto", call) {
  rows <- !inherits(source, "group_moments")
  methods <- fp_audit_methods(methods, margs)
  if (!is.null(progress)) fp_check_flag(progress, "progress")
  # checked whether or not an outcome asks for the held-out split that they set
  fp_check_number(test_fraction, "test_fraction", 0, 1, open_lower = TRUE, open_upper = TRUE)
  fp_check_seed(seed)
  y <- if (!is.null(outcome)) fp_audit_outcome(outcome, nrow(source$x))
  d <- if (rows) ncol(source$x) else length(source$colnames)
  m <- if (rows) nlevels(source$g) else length(source$levels)
  ks <- fp_audit_k(k, d, m)
  # checked whether or not there are intervals (replicates = 0 or level = NULL)
  ivk <- if (!is.null(interval_k)) fp_audit_interval_k(interval_k, ks)
  iv <- fp_audit_check_intervals(level, replicates, blocks)
  route <- if (rows) fp_audit_route(route, source, methods, margs, ks, iv, !is.null(y)) else "moments"
  if (route == "rows") {
    fp_audit_check_memory_rows(as.numeric(table(source$g)), d, !is.null(y), max(ks), !is.null(iv))
  } else {
    fp_audit_check_memory(d, m, rows, !is.null(y), if (rows && !is.null(iv)) iv$blocks else 0L, if (rows) nrow(source$x) else 0)
  }
  if (!is.null(iv) && !is.null(ivk)) iv$k <- ivk
  fp_audit_check_cost(methods, margs, d, m, ks, iv)
  structure(list(x = if (rows) source$x, g = if (rows) source$g, moments = if (!rows) source, outcome = y, k = ks,
                 d = d, m = m, methods = methods, margs = margs, center = center, scale. = scale.,
                 test_fraction = test_fraction, seed = seed, show = if (is.null(progress)) fp_progress_on() else progress,
                 intervals = iv, route = route, call = call),
            class = c(if (rows) "fairproj_audit_rows" else "fairproj_audit_moments", "fairproj_audit_spec"))
}

# Refuses up front an audit estimated to take longer than the time limit (fp_check_cost()): one
# fit per method and k, and one per method and replicate, each costing what the method's own
# estimate says where it grows with the number of groups (min-max, Pareto, robust; the others'
# fits at these sizes take milliseconds). Each fit is also checked alone; the audit multiplies:
# min-max over 400 groups, 2-3 s a fit, ran for minutes with 100 replicates before this check.
fp_audit_check_cost <- function(methods, margs, d, m, ks, iv) {
  fits <- length(ks) + if (is.null(iv)) 0L else iv$replicates * max(1L, length(iv$k))
  # the user's value of a scalar argument, else the method's own default (from its fit function,
  # the first choice of a choice argument), so the estimate follows the defaults in one place
  default <- function(meth, nm) {
    f <- fp_solver("pca", meth)
    eval(formals(f)[[nm]], baseenv())[1L]
  }
  opt <- function(meth, nm) {
    v <- margs[[meth]][[nm]]
    if (is.null(v) || length(v) != 1L || is.na(v)) default(meth, nm) else v
  }
  count <- function(meth, nm) {
    v <- opt(meth, nm)
    if (is.numeric(v) && is.finite(v) && v >= 0) v else default(meth, nm)
  }
  per <- vapply(methods, function(meth) {
    switch(meth,
           minmax = fp_minmax_cost(m, opt(meth, "solver"), opt(meth, "lp")),
           pareto = fp_pareto_cost(1 + if (identical(opt(meth, "disparity"), "single")) m else m * (m - 1) / 2,
                                   count(meth, "restarts")),
           robust = (count(meth, "restarts") + 1) *
             fp_robust_run_cost(d, max(ks), count(meth, "iterations"), !identical(opt(meth, "parameterization"), "complement"), m),
           0)
  }, numeric(1))
  fp_check_cost(fits * sum(per), sprintf("fair_audit() (%d fits of each of %s, over %s groups)", fits,
                                         fp_name_list(methods), format(m, big.mark = ",")),
                "lower `replicates` (0 gives no intervals), audit fewer methods, or merge small groups", arg = "replicates")
}

# The route of an audit of rows (`source`, list(x, g)): "moments" or "rows". `route` is the
# user's choice ("auto", "moments", "rows"); "rows" needs every audited method served by the row
# route in its basic variant (fp_route_choose()'s rule, method by method with its `margs`) and
# groups that are not intersectional. "auto" takes the row route where every method is served, d
# is at least fp_route_min_d, and either the moments route does not fit in memory, or it would
# give no intervals (none asked for, or block moments beyond their budget: the row route has
# none) and the row route's estimated cost at the largest k is less than half its own
# (fp_route_costs()): an audit whose moments route fits and gives intervals keeps it.
fp_audit_route <- function(route, source, methods, margs, ks, iv, outcome) {
  route <- fp_match_arg(route, c("auto", "moments", "rows"), "route")
  if (route == "moments") return("moments")
  xm <- source$x
  g <- source$g
  d <- ncol(xm)
  variant <- vapply(methods, function(meth) {
    if (!meth %in% fp_route_rows_methods) return("method")
    a <- fp_route_variant_arg(meth, if (is.null(margs[[meth]])) list() else margs[[meth]])
    if (is.null(a)) NA_character_ else a
  }, character(1))
  cells <- !is.null(attr(g, "cells"))
  if (route == "rows") {
    bad <- which(!is.na(variant))
    if (length(bad)) {
      meth <- methods[bad[1L]]
      what <- if (variant[[bad[1L]]] == "method") sprintf("method \"%s\"", meth) else
        sprintf("method \"%s\" with `%s`", meth, variant[[bad[1L]]])
      fp_abort(sprintf("= \"rows\" serves methods %s in their basic variants, and the audit includes %s: use route = \"moments\" or \"auto\", or drop it from `methods`",
                       paste(dQuote(fp_route_rows_methods, FALSE), collapse = ", "), what), "route")
    }
    if (cells) {
      fp_abort("= \"rows\" does not serve intersectional groups (their margins come from the moments): use route = \"moments\" or \"auto\"", "route")
    }
    return("rows")
  }
  if (any(!is.na(variant)) || cells || d < fp_route_min_d) return("moments")
  m <- nlevels(g)
  blocks <- if (!is.null(iv)) iv$blocks else 0L
  if (fp_audit_memory_need(d, m, TRUE, outcome, blocks, nrow(xm)) > fp_audit_memory_limit()) return("rows")
  if (blocks > 0L && fp_audit_n_blocks(blocks, m, d, 1L + outcome) > 0L) return("moments")
  cost <- fp_route_costs(nrow(xm), d, as.numeric(table(g)), max(ks))
  if (cost[["rows"]] * 2 < cost[["moments"]]) "rows" else "moments"
}

# The memory an audit by the row route needs (bytes), for groups of sizes `ng`, d columns, an
# outcome (`outcome`) and k up to `kmax`: the prepared copy of the rows that Lanczos reads (n x
# d; with an outcome also the training rows and their copy), each group's Gram matrix where it
# has fewer rows than columns (n_g x n_g), and the Lanczos bases and kept spectra (d x about
# max(2 kmax + 1, kmax + 20) for the pooled covariance and each group, twice); no d x d matrix.
# With `intervals`, also the diagnostics of one group at a time (fp_audit_row_blocks(): its Gram
# or cross-product and eigenvectors, two of min(n_g, d)^2, and its whitened rows, n_g x min(n_g,
# d), which a group of more rows than columns holds as n_g x d).
fp_audit_memory_need_rows <- function(ng, d, outcome, kmax, intervals = FALSE) {
  n <- sum(ng)
  ncv <- min(d, max(2 * kmax + 1, kmax + 20))
  8 * n * d * (1 + 2 * outcome) + 8 * sum(ng[ng < d]^2) + 16 * d * ncv * (length(ng) + 1) +
    if (intervals) 8 * max(2 * pmin(ng, d)^2 + ng * pmin(ng, d)) else 0
}

# fp_audit_check_memory() of the row route: refuses an audit whose rows' copies and products
# (fp_audit_memory_need_rows()) cannot fit in memory.
fp_audit_check_memory_rows <- function(ng, d, outcome, kmax, intervals = FALSE) {
  need <- fp_audit_memory_need_rows(ng, d, outcome, kmax, intervals)
  lim <- fp_audit_memory_limit()
  if (need <= lim) return(invisible(need))
  gb <- function(b) format(signif(b / 2^30, 2), big.mark = ",")
  fp_abort(sprintf(paste("has %s rows and %s columns: the audit's row route holds copies of the rows, which need about %s GB,",
                         "more than the %s GB available (option `fairproj.audit_memory`, in bytes, sets the limit); audit fewer",
                         "rows or columns"),
                   format(sum(ng), big.mark = ","), format(d, big.mark = ","), gb(need), gb(lim)),
           "x", class = "fairproj_memory_error")
}

# The memory an audit needs (bytes) at d columns and m groups, from the rows (`rows`, n of
# them) or from moments given, with an outcome (`outcome`) and the block moments of `blocks`
# blocks per group (0 for none, or from moments given, which carry them): every fit is from
# d x d moments (fair_pca() on a group_moments object), so it holds the groups' moments (m d x d
# matrices; five times with an outcome: the moments of the training and held-out parts, their
# sum, the training moments and the fits' copies), min-max's group covariances (m more), about
# 6 d x d work matrices of the solvers at their peak, the block moments (as many blocks as fit
# the option `fairproj.interval_memory`, fp_audit_n_blocks()) and, with an outcome, two copies
# of the rows (the training and held-out parts). Measured beyond the data's peak (n = 2000): d =
# 3000, two groups, no outcome: 8.5 d x d matrices (estimate 10); d = 2000, three groups, an
# outcome: 21.4 (estimate 24 and the rows).
fp_audit_memory_need <- function(d, m, rows, outcome, blocks = 0L, n = 0) {
  mats <- (if (rows) m * (if (outcome) 5 else 1) else 0) + m + 6
  parts <- 1L + outcome
  B <- if (blocks > 0L) fp_audit_n_blocks(blocks, m, d, parts) else 0L
  8 * d^2 * mats + 8 * (d^2 + d + 1) * m * parts * B + if (rows && outcome) 16 * n * d else 0
}

# The memory the audit may use (bytes): the option `fairproj.audit_memory`, else the memory the
# system reports available (MemAvailable of /proc/meminfo, Linux), else Inf (not known).
fp_audit_memory_limit <- function() {
  lim <- getOption("fairproj.audit_memory")
  if (!is.null(lim)) return(as.numeric(lim))
  info <- tryCatch(suppressWarnings(readLines("/proc/meminfo", n = 5L)), error = function(e) character(0))
  kb <- suppressWarnings(as.numeric(sub("^MemAvailable:\\s*([0-9]+).*$", "\\1", grep("^MemAvailable:", info, value = TRUE))))
  if (length(kb) == 1L && is.finite(kb)) kb * 1024 else Inf
}

# Refuses, before reading any moments, an audit whose d x d moments and fits cannot fit in memory
# (fp_audit_memory_need() against fp_audit_memory_limit()), naming `x` and saying what to do.
fp_audit_check_memory <- function(d, m, rows, outcome, blocks, n = 0) {
  need <- fp_audit_memory_need(d, m, rows, outcome, blocks, n)
  lim <- fp_audit_memory_limit()
  if (need <= lim) return(invisible(need))
  gb <- function(b) format(signif(b / 2^30, 2), big.mark = ",")
  fp_abort(sprintf(paste("has %s columns: the audit fits every method from d x d moments, which at %d groups%s need about %s GB,",
                         "more than the %s GB available (option `fairproj.audit_memory`, in bytes, sets the limit); audit fewer",
                         "columns (a subset, or the leading principal components), or audit by the row route (route = \"rows\",",
                         "methods \"standard\", \"mean\" and \"minmax\"), which forms no d x d matrix"),
                   format(d, big.mark = ","), m, if (outcome) " with an outcome" else "", gb(need), gb(lim)),
           "x", class = "fairproj_memory_error")
}
