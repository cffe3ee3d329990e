# Coverage of fair_audit()'s bootstrap intervals (#34, #44) on a grid of populations.
#
# Run: R_LIBS=.lib nice -n 19 Rscript bench/audit-coverage.R
#   FAIRPROJ_BENCH_DESIGNS  "reduced" (default), "full", "wellbehaved", "own_tie_judge", "near_tie_judge",
#                           "small_group_judge", "small_vk_judge", "small_vk_judge2", "near_tie_interval_judge",
#                           "own_tie_b_judge", "near_tie_c_judge2", "mean_b_judge", "change_judge",
#                           "judge18", "judge18b", "judge18c", "judge19", "judge19b",
#                           "judge20", "judge21", "judge22", "judge23", "judge24", "judge25",
#                           "judge26", "judge27", "judge28", "judge29", "judge30", "judge31",
#                           "judge32", "judge33", "judge34", "judge35",
#                           "judge36", "judge37", ..., "judge46",
#                           or a comma list of design
#                           names (see `designs` below; e.g. "g12k3m3n1000gauss,g20k5m3n100gauss")
#   FAIRPROJ_BENCH_NSIM     samples per design (default 100; a coverage of 0.9 then carries a
#                           standard error of 0.03)
#   FAIRPROJ_BENCH_REPLICATES  bootstrap replicates per audit (default 100, the package's default)
#   FAIRPROJ_BENCH_SHARD    "i/N": run only every N-th design starting at the i-th (i in 1..N),
#                           to split the grid over processes
#   FAIRPROJ_BENCH_OUT      a CSV file for the cell table (one row per design x method x
#                           quantity [x group]); FAIRPROJ_BENCH_SAMPLES a CSV of every interval
#   FAIRPROJ_BENCH_DRAWS_SAVE / FAIRPROJ_BENCH_DRAWS_REPLAY  an RDS file of every audit's
#                           bootstrap replicates, written / read back (see "saved replicates")
#
# A design is a population of m groups in d columns audited at one k, with n rows per group
# (a list recycled over the groups for unequal sizes) and one distribution of the columns:
#   gauss   Gaussian;  t5, t3  multivariate t with 5 or 3 degrees of freedom (same means and
#           covariances: x = mu + L z sqrt((nu - 2) / W), W ~ chi^2_nu);
#   lnorm   skewed: x = mu + L u, u independent standardised log-normal (sdlog 0.8);
#   pois    discrete: x = A y, y independent Poisson (rates 0.3-4), A a 0/1 mixing matrix, so
#           every column is a count.
# Shapes: `distinct` (the groups' means, spectra and principal axes differ), `alike` (every
# group from one population, so that every loss, gap and price is 0) and `tie` (distinct, but
# the first group's k-th and (k + 1)-th eigenvalues equal within 1%: a near-tie).
# The truth is what the audit gives on the populations' exact moments (group sizes in the
# design's proportions); a true value within 1e-8 of the largest error counts as 0.
# Each sample is audited with fair_audit(k, methods = standard, minmax, mean, level = 0.9);
# every interval of tidy(matrix = "intervals") is compared with the truth.
#
# Cell columns: `coverage` over all samples, `reliable_cov` over the samples whose interval the
# audit calls reliable (`n_reliable` of them), `flagged` the share called unreliable,
# `from_zero` the share of intervals that start at 0, `reason` the commonest reason given for
# a flag, and `verdict`: "flagged" where at least 80% of the samples are flagged, else
# "within" / "below" / "above" for reliable_cov against 0.85-0.95.
# `tie_flagged` (FAIRPROJ_BENCH_DIAG only, fair methods): the share of samples the candidate
# near-tie rule fires on (see "A near-tie detector for the fair methods" below).
# The printed summary counts the verdicts overall and for the well-behaved designs (Gaussian or
# Poisson columns, at least 1,000 rows per group, d up to 12: `well_behaved()`), where at most
# 10% of the intervals may be flagged.
#
# Bias the bootstrap does not see (#44 item 1, second round; bench/audit-bias-extrapolation.R,
# runs "2026-12-02f-cal" and "2026-12-02f"). TRIED AND NOT ADOPTED: neither a fast double
# bootstrap nor a half-size (m-out-of-n) bootstrap sees the missing bias, and neither improves
# the judging designs. Beside each of the audit's 100 replicates, one inner replicate drawn
# from that replicate's blocks (the fast double bootstrap: bias 2 b1 - b2, b1 the replicates'
# mean minus the estimate, b2 the inner replicates' mean minus their outer's) and one replicate
# of half the blocks (bias bh / 2 at a 1 / n rate, "H1", or bh / sqrt(2) at a 1 / sqrt(n) rate,
# "H2", the rate of a kink); the interval is the package's rule (quantiles shifted by b1, and
# by the bias estimate again where it exceeds half the replicates' sd) with each bias estimate
# in place of b1; "a" marks the same without the gate (always corrected). Own intervals only
# (groups' errors and losses, variance kept), every sample counted (flags ignored), the package's
# intervals unchanged. CALIBRATION d12k3m2n3000gauss and d12k3m3n1000pois, 40 samples each
# (36 cells); JUDGING d12k2m5n1000gauss and d12k3m3n1000gauss, 30 samples each (54 cells;
# the same samples as the judging runs above). Two processes at nice 10 on the shared 2-core
# machine (load 6-8), 7-8 min each (three replicate sets per audit).
#   Bias seen, over the estimates' true sd (true / single / double / H1 / H2), at the failing
#   calibration design d12k3m2n3000gauss: min-max's losses 2.50 / 1.16 / 1.41 / 1.05 / 1.49,
#   mean matching's loss of group a 2.47 / 1.17 / 1.39 / 1.07 / 1.51, and STANDARD PCA's loss
#   of group a 2.85 / 1.43 / 1.76 / 1.28 / 1.81: the unseen bias is in the losses of every
#   method, the smooth standard PCA's too, so it is not (only) min-max's kink; the double
#   bootstrap and the rate extrapolation each recover about a quarter of what is missing.
#   Verdicts (within / below / above 0.85-0.95, mean coverage):
#                       calibration (36 cells)     judging (54 cells)
#     package (P)       23 / 13 / 0  0.843         26 / 27 / 1  0.846
#     double (D)        20 / 16 / 0  0.842         23 / 30 / 1  0.830
#     double, always    24 / 12 / 0  0.844         29 / 24 / 1  0.832
#     half, 1/n (H1)    25 / 11 / 0  0.845         32 / 21 / 1  0.855
#     half, 1/sqrt(n)   27 /  9 / 0  0.858         25 / 25 / 4  0.851   <- best on calibration
#     H2, always        22 / 14 / 0  0.855         31 / 19 / 4  0.858
#   d12k3m2n3000gauss alone: P 6 / 9 / 0, H2 7 / 8 / 0 (min-max's losses 0.65 -> 0.72, the
#   largest miss unchanged in kind). The variant chosen on calibration (H2) does not improve the
#   judging totals (within 26 -> 25, above 1 -> 4); the others trade a few cells either way,
#   within the noise of 30-40 samples (a coverage's standard error 0.05-0.055). A half-size
#   set of replicates would also cost half as many again solver calls (d = 20: 0.56 s ->
#   about 0.85 s of CPU with 50 of them), a full inner set twice. The third option of the
#   brief, a structural bias term for min-max from each group's spectrum, was not tried (time).
#   Where the missing bias sits (d12k3m2n3000gauss, 40 samples; a loss is the group's error at
#   the fitted subspace minus its own best rank-k error, in the audit's units): group a's best
#   error is biased by -0.130 (its replicates' sd 0.059), of which the bootstrap sees -0.082;
#   the errors at the fitted subspaces are biased by -0.011 (standard), -0.052 (min-max), -0.017
#   (mean matching), seen -0.022 / -0.046 / -0.028. So the losses' unseen bias is the in-sample
#   optimism of the group's OWN best error, the same for every method, and a structural term
#   (option 3) should target each group's best error, not min-max's subspace. Its cause is a
#   near-tie in the group's OWN covariance at k, made by the scaling (scale. = TRUE): the
#   relative gap (l_k - l_(k+1)) / l_k of group a's covariance is 0.166 unscaled but 0.009 in
#   the audit's scaled coordinates (d12k3m3n1000gauss's group a: 0.011; the other groups of the
#   calibration and judging designs 0.03-0.42, d12k2m5's 0.08-0.34). A plain check of the
#   mechanism (bench/audit-bias-extrapolation.R --own-tie: two Gaussian groups of 3,000 rows
#   with these spectra, d = 12, k = 3; 80 samples, 100 iid bootstrap replicates each; group a's
#   best rank-k error over the pooled trace): unscaled (own gap 0.166), bias -0.00095 (se
#   0.0006; 0.18 sd), bootstrap -0.00125 (sees it all); scaled by the sample's pooled column
#   sds (own gap 0.012), bias -0.0070 (se 0.0005; 1.5 sd), bootstrap -0.0053 (76%):
#   at a near-tie the sample's eigenvalues repel and the replicates start from the wider sample
#   gap, as for standard PCA's pooled near-tie (fp_audit_near_tie()), which judges only the
#   pooled covariance. Next step: a correction (or, where none reaches it, the pooled near-tie
#   criterion applied to each group's own covariance at k for the losses) measured the same way;
#   d4k1m2n1000gauss (group a's own gap 0.028, calibrated at d = 4) is the control. The judging
#   failures of d12k2m5n1000gauss are not explained by it (mean matching's error of group e
#   covers 0.67 with an own gap of 0.335).
#
# Groups with 20 to 25 rows per direction centred on the bias-corrected estimate (#44 item 1;
# runs "2026-12-03n-before" and "2026-12-03n"; fp_audit_small_bias(), fp_small_group_rho).
# Found in run "2026-12-03m": at d4k1m2n60_3000gauss (60 rows, 3 directions: 20 per direction,
# just clear of the flag) standard PCA's and mean matching's loss of the small group sat 0.96
# of its sd above the truth, a bias the bootstrap sees (centred on the estimate since run
# "2026-12-03k", the intervals kept it) and covered 0.80-0.82. Rule fixed before any result:
# groups with n / (k (d - k)) below tau centred on the bias-corrected estimate (standard PCA:
# those groups' errors and losses; a fair method: every group's). CALIBRATION on the eight
# unequal-size designs of run "2026-12-03m" and d12k3m2n60_3000gauss (40 samples, drawn with tau
# = 0 and saved, replayed): tau* the one of 25, 30, 35 with the fewest unflagged cells outside
# 0.85-0.95, ties to the smaller. JUDGING on small_group_judge_grid() (eight designs fixed before,
# 40 samples, drawn at tau = 0, replayed at tau*): ADOPT if those cells fall and the cells
# within do not fall by more. Unflagged cells within / below / above (out of the band):
#                                        calibration          judging
#   tau = 0 (the package before)         32 / 35 / 16 (51)    171 / 69 / 59 (128)
#   tau = 25, 30 or 35 (the same cells)  38 / 29 / 16 (45)    tau* = 25: 176 / 70 / 53 (123)
# ADOPTED (mean |c - .9| on judging 0.0612 -> 0.0607; flags unchanged, 13 cells). Only one
# judging design has a group under 25 rows per direction (d6k1m3n120_2000gauss, 24): its cells'
# mean coverage 0.93 / 0.90 / 0.93 (mean matching / min-max / standard) -> 0.90 / 0.90 / 0.91,
# 6 cells above -> within, 1 within -> below. Beside the rule, for information: at tau = 30,
# which reaches six judging designs (25-28.6 rows per direction), 167 / 90 / 42 (132): from 25
# rows per direction up the correction costs more than it gives. A variant without min-max
# (tried on calibration after the first replays, as min-max's losses at d4k1m2n60_3000gauss fell
# from 0.80 to 0.67 with it): calibration 36 / 31 / 16 (47), so not chosen; judging 174 / 70 / 55
# (125). Groups under 20 rows per direction, flagged, are left as they were, and no golden case
# moved (none has a group in 20-25).
#
# A fair method's intervals flagged in every group where one group's are (#44 item 1; run
# "2026-12-03m"; fp_audit_joint_flags()). Found in run "2026-12-03l": with 60 rows beside 3,000,
# the small groups' intervals were flagged (too few rows per direction) but min-max's and mean
# matching's of the large groups, whose fits depend on the small groups' losses and means, were
# not, and missed (d12k1m3n60_3000gauss: min-max's error of a 3,000-row group 0.57). Rule fixed
# before any result: for every method but standard PCA, one group's flag at k flags all its
# groups at k; ADOPT if on eight unequal-size designs never run before (d4k1m2n60_3000gauss,
# d12k2m3n60_3000gauss, d12k3m3n60_3000pois, d12k1m5n60_3000gauss, d20k2m3n60_3000gauss,
# d4k1m5n60_3000gauss, t12k2m2n60_3000gauss, d12k2m5n60_3000t5; 40 samples, package before the
# rule, the rule applied to the samples' flags, which is all it changes) the fair methods'
# unflagged cells below + above fall, and on the calibration and near-tie judging designs' samples
# (well-behaved) no design's flagged share rises by more than 0.02. Result: fair cells within /
# below / above / flagged 19 / 23 / 6 / 166 -> 4 / 14 / 6 / 190 (out of the band 29 -> 20); the
# well-behaved designs' flagged shares unchanged (no fair method there has one group flagged
# without the others): ADOPTED. Flagged share of all intervals per design 0.79-0.92 -> 0.93-1.00,
# except d4k1m2n60_3000gauss (0.021 -> 0.024), whose 60-row group clears the rows-per-direction
# rule (k (d - k) = 3 directions, 20 rows each) and where min-max's cells still cover 0.74-0.85
# and mean matching's losses 0.79, unflagged: the small group's unseen bias is still to be
# detected there. The rows of run "2026-12-03m" in bench/audit-coverage.csv are the same samples
# audited by the package with the rule (7 designs, 309 cells; flags equal to the offline
# application). d4k1m5n60_3000gauss gave no cells: five groups at d = 4 leave mean matching
# infeasible at k = 1, and its NA errors made every truth NA (truth_of(), fixed after the run).
#
# A sample of the full grid (#44 item 1; run "2026-12-03l"): every 40th of full_grid()'s 2,520
# designs (FAIRPROJ_BENCH_DESIGNS=full, FAIRPROJ_BENCH_SHARD=7/80 and 47/80, two processes at
# nice 5, 23 min each), 30 samples per design, on main after run "2026-12-03k": 62 designs,
# 2,719 cells (t4k1m5n60_3000t3, the 63rd, gave none: mean matching is infeasible there and
# truth_of() made every truth NA; fixed after the run). With 30 samples a cell that covers exactly 0.9 falls outside 0.85-0.95 by chance
# in 36% of cases (25 or fewer of 30, or 29 or more), so single verdicts here are coarse.
#  * All cells: 189 within, 80 below, 79 above, 2,371 flagged in >= 80% of their samples; the
#    flags' reasons: too few rows for the directions estimated 1,728 cells, heavy tails 320,
#    group means the data do not fix 263, standard PCA's pooled near-tie 60.
#  * Well-behaved designs (4: d4k1m3n1000gauss, d12k2m5n1000pois, d12k3m5n1000gauss,
#    t12k2m3n3000gauss; 196 cells): 97 within, 35 below, 34 above, 30 flagged (chance alone
#    would put about 60 of the 166 unflagged cells outside the band). Flagged share of the
#    intervals 0, 0, 0.30, 0.30: the last two by standard PCA's near-tie, above the 10% the
#    issue allows, as in run "2026-12-03i". The cells below sit at 0.40-0.83 (min-max 14,
#    mean matching 14, standard PCA 7), 25 of 35 at 0.80-0.83; the lowest are the loss ratios:
#    min-max's at t12k2m3n3000gauss (0.40) and d4k1m3n1000gauss (0.67), mean matching's at
#    d12k3m5n1000gauss (0.67).
#  * Not well-behaved (58 designs): 50 flagged in every cell. The 8 others have 45 cells below
#    (min-max 22, mean matching 16, standard PCA 7; reliable coverage 0-0.84, median 0.80):
#    d50k1m2n1000gauss 11 (standard PCA's loss of group a 0.43 and its loss ratio 0, min-max's
#    variance kept 0.46: at d = 50 every group's own eigenvalues are 4-5% apart, about one
#    sampling sd at 1,000 rows, and k (d - k) / n = 0.049 sits just under the rows-per-direction
#    flag's 1 / 20), d4k1m3n60_3000pois 9, d20k1m5n60_3000gauss 8 and d12k1m3n60_3000gauss 4
#    (min-max's and mean matching's errors and losses of the 3,000-row groups 0.57-0.84, flagged
#    in 0-23% of samples, beside 60-row groups flagged for too few rows per direction; mean
#    matching's errors of the 60-row groups at d4k1m3n60_3000pois 0.80-0.81), t12k1m3n300gauss 6, d50k1m2n60_3000pois 3, d12k3m5n60_3000pois 2,
#    t20k2m5n3000gauss 2.
#
# The full-grid sample's twelve designs with cells below, again (#44 item 1; runs
# "2026-12-03o-before" and "2026-12-03o"; 30 samples, the same seeds as run "2026-12-03l", so the
# same samples; two processes, 4 min). On main after the joint flags and the small groups'
# centring (o-before): 169 within, 70 below, 85 above, 236 flagged of 560 cells. The fair
# methods' cells of the 3,000-row groups beside 60-row ones are now flagged with them
# (d20k1m5n60_3000gauss 8 cells below -> 1, d12k1m3n60_3000gauss 4 -> 0, both 93-95% flagged);
# d50k1m2n1000gauss 11 -> 7 (standard PCA's loss of group a 0.43 -> 0.80: 1,000 / 49 = 20.4
# rows per direction takes the bias-corrected centring); d4k1m3n60_3000pois 9 -> 18, its fair
# methods flagged in 60% of samples (was 47%), the cells below at 0.75-0.83 of the 12 samples
# left. The well-behaved designs' flagged share is unchanged: 0.30 at d12k3m5n1000gauss and
# t12k2m3n3000gauss, standard PCA's pooled near-tie in 97-100% of their samples, whose
# intervals, flagged, cover 0.77-1.0 (all 30 samples): there the flag is not needed.
# Two rules of consistency for the loss ratio, applied to the saved replicates (o): (1) where
# the loss gap's interval starts at 0 the ratio's starts at 1 (losses the data do not tell
# apart may be equal: min-max's three equalised losses have a ratio of 1 + 1e-9, and its
# interval above 1 missed a truth of 1 + 3e-10 in 18 of 30 samples at t12k2m3n3000gauss, 10 at
# d4k1m3n1000gauss and t20k2m5n3000gauss); (2) where the groups' loss intervals are centred on
# bias-corrected estimates (small groups, own near-ties), the ratio's replicates are computed
# from loss replicates moved with them (standard PCA's ratio at d50k1m2n1000gauss, true 2.58,
# read 2.01 [1.70, 2.07] beside largest and smallest losses whose intervals held 2.58: covered
# 0 of 30). Nothing tuned. Verdicts within / below / above (flags unchanged):
#                                   before            (1)               (1) + (2)
#   these twelve designs            169 / 70 / 85     168 / 68 / 88     171 / 65 / 88
#   near_tie_judge_grid()           117 / 84 / 59     116 / 83 / 60     118 / 82 / 60
#   small_group_judge_grid()        128 / 89 / 82     126 / 89 / 84     126 / 91 / 82
# (the judges' replicates drawn once, run "2026-12-03o-judge", and replayed by main before,
# "-judge-before"; (1) alone not stored). Mean |coverage - 0.9| of the unflagged cells 0.0567 ->
# 0.0513, 0.0607 -> 0.0604, 0.0668 -> 0.0668. Adopted as item 2's consistency (the golden set's
# nine audits moved in their loss ratio columns only).
#
# TRIED AND NOT ADOPTED (#44 item 1; run "2026-12-03p-cal", not stored): a near-tie's reach.
# Where standard PCA's pooled near-tie flag fires, the data leave its k-th direction anywhere in
# the plane of eigenvectors k and k + 1; each group's error ranges there over the spread of the
# 2 x 2 block of its covariance in that plane (from its errors at three subspaces). Candidate:
# the flag holds only the groups whose reach exceeds c sds of their error's replicates. Rule
# fixed before any result: CALIBRATION on the seven calibration designs of the near-tie study
# (40 samples, drawn once at c = 0, the flag as it is, and replayed): c* the largest of 0.5, 1,
# 2, 4 whose count of standard PCA's cells below 0.85 is no larger than at c = 0; JUDGING on
# near_tie_judge_grid(). Standard PCA's cells within / below / above / flagged, and its
# flagged share: c = 0 43 / 4 / 7 / 37, 0.399; 0.5 43 / 6 / 9 / 33, 0.366; 1 43 / 8 / 14 /
# 26, 0.301; 2 45 / 8 / 14 / 24, 0.268; 4 (partial run) 31 / 7 / 14 / 0. No c qualifies: NOT
# ADOPTED, not judged. Where it fails: the alike design a12k3m2n1000gauss (both groups from one
# population, a pooled near-tie that is each group's own), where the reach is the small gap
# itself and the released intervals of the groups' errors cover 0.09-0.11: the near-tie's harm
# there is not a rotation of the subspace between groups but the in-sample optimism of the
# top-k eigenvalues' sum (the sample's eigenvalues repel), which standard PCA's errors carry
# uncorrected (the own near-tie correction moves losses, not standard PCA's errors). A
# correction of that optimism for standard PCA's errors, from the pooled spectrum as
# fp_audit_own_tie() does for the best errors, is the next candidate.
#
# Four more shards of the full grid (#44 item 1; run "2026-12-03r"): FAIRPROJ_BENCH_DESIGNS=full,
# FAIRPROJ_BENCH_SHARD=27/80 and 67/80 in full, 17/80 and 57/80 without their last four and two
# designs (t50k6m5n60_3000gauss, d50k12m2n3000pois, t50k12m3n3000t3, a50k12m5n3000t5,
# a50k12m3n100lnorm, d50k12m5n100t3: d = 50 at k = 6 and 12, stopped for time), 30 samples per
# design, two processes at nice 5 beside other runs (40-45 min a shard), on main before the
# variance kept's centring below (which touches only groups of 20-25 rows per direction):
# 120 designs, 5,224 cells.
#  * All cells: 414 within, 193 below, 136 above, 4,481 flagged in >= 80% of their samples; the
#    flags' reasons: too few rows for the directions estimated 2,988 cells, heavy tails 859,
#    group means the data do not fix 522, standard PCA's pooled near-tie 80, min-max at a kink 32.
#  * Well-behaved designs (7: d12k1m2n1000pois, d12k2m2n1000gauss, d12k2m3n3000pois,
#    d12k3m3n3000gauss, d4k1m2n3000gauss, t12k1m2n1000gauss, t4k1m5n3000gauss; 262 cells): 162
#    within, 60 below, 29 above, 11 flagged. Flagged share of the intervals 0 in six, 0.27 at
#    d12k2m2n1000gauss (standard PCA's pooled near-tie in every sample; its fair methods' cells
#    there 13 within / 11 below). The cells below sit at 0.57-0.83, median 0.80 (24 of 30; a
#    cell covering exactly 0.9 falls to 25 of 30 or fewer in 18% of cases, and 60 of 251
#    unflagged cells is 24%): min-max 23, mean matching 20, standard PCA 17.
#  * Not well-behaved (113 designs): 97 flagged in every cell; the other 16 have 133 cells below,
#    most at d4k1m2n100pois 17, d20k5m5n3000gauss 15, t4k1m2n100gauss 15, d20k2m3n1000gauss 14,
#    t50k1m5n1000gauss 12, t20k1m3n1000gauss 11; of the 133, min-max 64, mean matching 39,
#    standard PCA 30.
#
# A fair method's variance kept and price centred on the bias-corrected estimate where a group
# has 20 to 25 rows per direction (#44 item 1; runs "2026-12-03s" and "2026-12-03t", each with
# its "-before"; fp_interval_corrected() in fp_audit_table_intervals()). Found in run
# "2026-12-03q" (100 samples, main): at d50k1m2n1000gauss (1,000 / 49 = 20.4 rows per direction)
# min-max's variance kept sat 1.8 of its sd above the truth (the in-sample optimism of a fitted
# subspace) and was covered 0.53, mean matching's 1.5 sd, 0.66 (all samples), while their groups' errors and
# losses were already centred on the bias-corrected estimate there (fp_audit_small_bias()); on
# 30 of those samples the bootstrap saw 1.32 / 1.39 of the 1.67 / 1.49 sds. Rule fixed before
# any judging result, no parameter: the same groups, the same correction, for the two
# quantities left out. JUDGING on small_vk_judge_grid() (seven designs never run, 20.4-23.5
# rows per direction, 40 samples, drawn on main and replayed): ADOPT if the fair methods'
# variance kept and price cells outside 0.85-0.95 fall and those within do not. Within / below /
# above (of 28 cells, none flagged): before 15 / 11 / 2, after 18 / 8 / 2: ADOPTED. Mean
# |coverage - 0.9| mean matching 0.123 -> 0.046 (variance kept 0.20 -> 0.89 at
# d50k1m3n1000gauss, 0.72-0.74 -> 0.87-0.97 at d24, d30, d40), min-max 0.062 -> 0.067 (its
# variance kept 0.69-0.81 -> 0.89-0.95 at d20, d24, d40 but 0.96 -> 0.75 at d50k1m3n1000gauss and
# 0.85 -> 0.70 at d30k1m2n650gauss). As min-max's side was mixed, a second judging set was fixed
# before its results (small_vk_judge2_grid(), six designs, 40 samples) to choose between the rule
# (A) and the rule without min-max (B), the one with fewer cells out of the band if fewer than
# before, A on a tie: before 11 / 12 / 1, A 13 / 11 / 0, B 11 / 12 / 1; min-max's mean
# |coverage - 0.9| 0.138 -> 0.080 under A (its variance kept 0.29 -> 0.73 at d44k1m2n950gauss,
# 0.78 -> 0.92 at d36k1m3n720gauss). A stays. Every other cell of both sets is unchanged. For
# information, small_group_judge_grid()'s saved draws replayed: only d6k1m3n120_2000gauss has a
# group in 20-25 rows per direction; min-max's price 0.87 -> 0.97 and variance kept 0.90 -> 0.83
# there. Left: min-max's variance kept still covers 0.70-0.78 in five designs at d = 20-50 (the bootstrap sees
# part of its bias), mean matching's 0.80-0.84 in three designs. The golden set has no group in
# 20-25 rows per direction and did not move.
#
# TRIED AND NOT ADOPTED (#44 item 1; runs "2026-12-03q-cal" and "-judge", not stored): the
# reach above with a second condition for the optimism. A group's standard PCA intervals at a
# pooled near-tie released where its error's range over the tied plane is at most c sds of its
# error's replicates AND the bias at the tie is small: |seen bias| + U <= 0.5 sd, U the unseen
# bias of the pooled top-k sum (fp_own_tie_bias() on the pooled spectrum, the alike design's
# harm). Rule fixed before any result: CALIBRATION on the calibration draws of the reach study
# (40 samples, replayed), c* the largest of 0.5, 1, 2 whose count of standard PCA's cells below
# 0.85 is no larger than with no release; JUDGING on near_tie_judge_grid()'s saved draws (30
# samples): ADOPT if standard PCA's flagged share falls and its cells below do not rise.
# Calibration, standard PCA's cells within / below / above / flagged: no release 43 / 4 / 7 /
# 37 (flagged share 0.399); c = 0.5 and 1 the same; c = 2 43 / 6 / 7 / 35 (d12k3m3n1000gauss's
# group c released in 27% of samples, its cells 0.85 and below). c* = 1. Judging at c* = 1:
# 14 / 16 / 22 / 39 both, flagged share 0.440 -> 0.438: it releases almost nothing. NOT ADOPTED.
# Why, from the released rule's inputs (a trace on it): on d10k2m4n1000gauss and
# t8k2m3n1000gauss, whose flagged intervals cover 0.77-0.97, the groups' errors range over 0.5-13
# of their replicates' sds across the tied plane (10% and 90% quantiles 1.9 and 5.9, median 3.4;
# at most 1 sd in 1.5%), so the reach does not tell where a near-tie harms; the optimism
# condition held in 75% there (U under 0.05 sd in 91%) and kept the alike design flagged (U
# 1.0-1.6 sds in 67 of the calibration pair's 194 flagged groups, the alike design's share).
# Where the near-tie harms (run "2026-12-03q", 100 samples per design on main, in
# bench/audit-coverage.csv): standard PCA's group errors and losses, flagged in 95-100% of the
# samples, cover 0.73-0.88 at d12k3m3n1000gauss (widths 0.79-0.95 of the estimates' true spread,
# centres 0.1-0.8 sd off the truth, the bias of both signs by group: the estimate averages the
# error over the plane the sample's direction wanders in, and the bootstrap, wandering about the
# sample's direction, sees under half of it; centring on the bias-corrected estimate covers
# 0.74-0.78, less) and 0.76-0.93 at d10k2m4n1000gauss (its loss of group a 0.76, 1.4 sds off),
# but 0.90-0.94 at t12k2m3n3000gauss and 0.84-0.95 at d12k3m5n1000gauss, where the flag is
# not needed. Their populations' pooled gaps at k, in sampling sds of the gap (Gaussian,
# sqrt(2 (l_k^2 + l_(k+1)^2) / N)): d12k3m3n1000gauss 1.18, d10k2m4n1000gauss 1.68 (harmed);
# t12k2m3n3000gauss 1.37, d12k3m5n1000gauss 1.64 (not harmed); t8k2m3n1000gauss 1.97,
# d12k3m2n2000pois 2.67. A sample's gap estimate carries about one such sd of noise, and the
# harmed and unharmed populations interleave, so no rule on the gap (or on the reach) flags the
# harmed ones in 80% of their samples and the others in under 10%: the bootstrap is not
# consistent for these functionals at a tie (Beran & Srivastava 1985; Eaton & Tyler 1991), and
# where the gap is one or two of its sds it is neither clearly valid nor clearly not. Meeting
# both halves of item 1 on such populations needs intervals that hold uniformly near a tie, not
# another flag rule.
# Near-tie intervals (bench/near-tie-interval.R, a study outside the package; 2026-12-04). In the
# sample's eigenbasis the noise of the plane's 2 x 2 block (the pooled correlation matrix's, as the
# audit scales) is, to first order, an isotropic normal vector of sd s per coordinate (from each
# row's influence), so the sample's gap g is the length of a Rice vector about the population's gap
# D and, given g, twice the angle between the population's and the sample's k-th directions is von
# Mises with concentration g D / s^2. A group's error at the population's subspace is then a von
# Mises mixture over the plane of its error there with a fixed-subspace normal noise. `cond`: D at
# its median-unbiased estimate, the mixture's 5-95% quantiles; `union`: the union of its 4.5-95.5%
# intervals over a 99% set of D (Bonferroni); `fixed`: no rotation (`scaled` below). On the samples
# of run "2026-12-03q" (the same draws, 100 per design), standard PCA's group errors and losses,
# cells within 0.85-0.95 of 30: cond 22, union 10, fixed 7 (the package flags 94-100% of them today;
# its intervals cover 0.73-0.95). Cond's others: 6 below, 0.68-0.84, all at d12k3m3n1000gauss and
# d10k2m4n1000gauss (the group's own best error's in-sample optimism, the pooled scaling's noise and
# the rotations out of the plane are left out), 2 above (0.97); union over-covers (above 0.95 in 19
# cells). Six other designs at 100 samples (three populations "p3", t8k2m3n1000gauss,
# d6k1m3n1000gauss, d12k2m5n1000gauss): cond 29 of 40 within, 7 below (0.70-0.84: one group's loss
# in three designs, where fixed is 0.63-0.78 too; t8k2m3n1000gauss's group c 0.84 and 0.75), 4 above
# (0.96-0.97); union 23 within (14 above), fixed 22. Three designs of run "2026-12-03r" at its 30
# samples (where the package's flags are known): d12k2m2n1000gauss (flagged 87%: population's gap
# 2.8 s) cond 0.60-1.00, the package 0.73-0.93. Widths, cond over fixed: 1.0-1.1 where the gap is 5
# s or more, 1.1-4.1 near the tie. `scaled` (cond with the pooled sds' noise in the fixed-subspace
# se and the best error's first-order optimism taken off the loss) covers less: 21 of 30 and 27 of
# 40 within, its se smaller (the pooled sds' influence partly cancels the group's: a group's error
# is over the pooled variances), so cond's row-level se stands in for noise it leaves out. So a
# conditional interval of this kind reaches the band in about three cells in four where the package
# can today only flag, on the designs it was tried on. JUDGED on six designs fixed before their
# results (other populations of the four near-tie designs' kinds, d12k3m5n1000gaussp2,
# d8k2m3n1000gaussp2, t10k2m3n1000gauss; 100 samples; populations' gaps 2.1-6.8 s): cond 22 of 42
# cells within (16 below, 0.67-0.84; 4 above), scaled 18, union 24, fixed 10. Fixed covers 0.45-0.85
# even where the gap is 4-7 s (d8k2m3n1000gaussp2, t10k2m3n1000gauss), so the group rows'
# fixed-subspace noise misses much of what the audit's bootstrap sees (the rotations out of the
# plane, the pooled scaling, the best error's optimism), and the study's interval is not the
# package's next step as it stands. What it shows is the plane's part: the von Mises mixture given
# the gap. The next step is the bootstrap with that part replaced: each replicate's subspace with
# its angle in the plane of eigenvectors k and k + 1 drawn from the conditional law instead of the
# replicate's own (which the bootstrap gets wrong at a tie), judged as here. NOT in the package.
# That step, tried at once in the study (FAIRPROJ_BENCH_BOOT=1: a bootstrap of each group's rows,
# 100 replicates, the audit's shifted percentile interval, `boot`; `mod` the same from a world whose
# gap in the plane is D's estimate, Beran and Srivastava's modified bootstrap for the plane; the
# samples are bench/audit-coverage.R's, the resamples from a stream of their own): on run q's
# near-tie designs boot 21 of 30 cells within (7 below, 0.63-0.84), mod 21 (5 below); on the six
# judging designs boot 38 of 42 within (4 below, 0.73-0.84: group a's error and loss at
# d8k2m3n1000gaussp2, gap 4.7 s; group a's error at d12k3m3n1000gaussp4, 3.5 s, and loss at
# d10k2m4n1000gaussp2, 2.6 s), mod 37. The modification barely moves anything (widths 1.00-1.12 of
# boot's). Beside the package on the same samples: its intervals are boot's (widths 0.99-1.00 of
# them, centres within 0.02 width; run q, 100 samples: both 21 of 30 within, the package 9 below,
# boot 7). THE PACKAGE on the six judging designs (near_tie_interval_judge_grid(), 30 samples; run
# "2026-12-04a" in bench/audit-coverage.csv): standard PCA flagged by its near-tie in 40-80% of
# samples in four of them (the designs' flagged shares 0.12-0.25, over the well-behaved budget of
# 0.1), where the same intervals cover within 0.85-0.95 in 38 of 42 cells at 100 samples; 7% and 0%
# in the other two. So on these populations the near-tie flag fires where the bootstrap holds, and
# the failures left (run q's d12k3m3n1000gauss at a gap of 1.3 s, d10k2m4n1000gauss's loss of group
# a at 1.9 s; d8k2m3n1000gaussp2 at 4.6 s, unflagged) are not ordered by the gap either. Neither the
# conditional interval nor the plane's modified bootstrap mends them: the next step is to find what
# they share (replaying saved draws), not another interval for the plane.
#
# Standard PCA's pooled near-tie flag recalibrated (#44 item 1; runs "2026-12-04d-cal",
# "2026-12-04d-before" and "2026-12-04d"). At fp_near_tie_c = 0.75 the flag fired in 40-86% of
# the samples of twelve of sixteen well-behaved designs at 100 samples (near_tie_interval_judge,
# run "2026-12-04c"; own_tie_b_judge, run "2026-12-04b"; run q's four near-tie designs), among
# them ordinary distinct populations (d6k1m3n1000gaussp2: 73% of samples), while standard PCA's
# intervals over ALL their samples, flags ignored, were within 0.85-0.95 in 134 of 162 cells
# (the flag's selection left the unflagged samples covering less: 21 cells below on O against 9
# over all samples). Rule fixed before any result: CALIBRATION on those sixteen designs' saved
# replicates, replayed with FAIRPROJ_BENCH_NEAR_TIE_C = c for c in {0, 0.25, 0.35, 0.5, 0.75}:
# c* maximises standard PCA's cells within less those below, above and flagged (ties to the
# larger c). Standard PCA's cells within / below / above / flagged, score, and the designs with
# more than a tenth of their intervals flagged:
#   c = 0.75   92 / 45 /  8 / 75   -36   12 of 16
#   c = 0.5   132 / 59 / 16 / 13    44    6
#   c = 0.35  164 / 41 / 15 /  0   108    4
#   c = 0.25  166 / 35 / 19 /  0   112    2
#   c = 0     167 / 33 / 20 /  0   114    0
# c* = 0 (the flag fires only where the replicates' own bias exceeds the gap). JUDGING on
# near_tie_c_judge2_grid() (seven designs fixed before their results, 100 samples, drawn at 0.75
# and replayed at 0): ADOPT if standard PCA's cells below + above + flagged do not rise, its
# cells within do not fall and no more designs have over a tenth of their intervals flagged.
# Result: 46 / 4 / 2 / 37 -> 80 / 5 / 4 / 0, designs over a tenth 5 -> 0 of 7 (all cells:
# 197 / 41 / 16 / 37 -> 231 / 42 / 18 / 0): ADOPTED. What it gives up: d12k3m3n1000gauss (a
# pooled gap of 1.3 of its noise sd) was flagged in 95% of its samples and is now unflagged,
# 9 of its 13 standard cells below (errors 0.73-0.85); d10k2m4n1000gauss 3 below.
#
# Three tries at the cells left below on well-behaved designs (#44 item 1; 2026-12-04, replays of
# saved replicates, 100 samples per design, the package at fp_near_tie_c = 0.75; none adopted).
# Sets: CAL, run q's four near-tie designs (d12k3m3n1000gauss, d10k2m4n1000gauss,
# t12k2m3n3000gauss, d12k3m5n1000gauss); J, near_tie_interval_judge_grid() at 100 samples (run
# "2026-12-04c"); O, own_tie_b_judge_grid() (fixed before any result, run "2026-12-04b"). Cells
# within / below / above / flagged, all methods.
#   1. A group's own near-tie: its best error's bias the replicates show (b, the estimate less
#      their mean) taken off its losses as well as the unseen part u, wherever u > 0 (so the
#      loss is centred on the estimate less b + u; min-max through its dual weights as u).
#      CAL 97 / 24 / 11 / 58 -> 101 / 22 / 9 / 58; J 168 / 71 / 20 / 17 -> 167 / 71 / 21 / 17;
#      JUDGED on O (ADOPT if within does not fall, below does not rise, mean |c - .9| does not
#      rise): 181 / 54 / 21 / 0 -> 176 / 67 / 13 / 0, mean |c - .9| 0.0473 -> 0.0479. NOT ADOPTED:
#      it helps mean matching's loss of the tied group (0.76 -> 0.89, 0.80 -> 0.89) and hurts
#      standard PCA's where the error's own bias has the other sign (0.88 -> 0.72, 0.86 -> 0.76).
#   2. Min-max's set of groups holding the largest loss changing between replicates: flag where
#      a group's membership differs from the fit's in more than a share s of the replicates.
#      Calibrated on J (rule: the most min-max cells within, ties to the larger s): min-max
#      within / below / above / flagged: none 54 / 34 / 8 / 0; s = 0.05 and 0.1 35 / 20 / 9 /
#      32; 0.2 43 / 44 / 9 / 0; 0.3 41 / 33 / 7 / 0. No s beats none: NOT ADOPTED (the
#      membership changes in a tenth of the replicates in most designs with three groups or
#      more, where the intervals hold).
#   3. A group holding min-max's largest loss while its own eigenvalues k and k + 1 nearly tie
#      (u > 0), with three groups or more: flag min-max at that k. On J min-max 54 / 34 / 8 / 0
#      -> 9 / 6 / 0 / 81, on O 54 / 21 / 13 / 0 -> 30 / 6 / 5 / 47 (flagged share 0.14 -> 0.38):
#      u > 0 holds for most groups of these designs. Gated further on the group's bias (b + u)
#      exceeding the median of the other top groups' by z of its loss's sd (calibrated on J, the
#      most min-max cells within): z = 0.5 18 / 14 / 0 / 64, z = 1 36 / 47 / 13 / 0, against 54
#      for none: NOT ADOPTED.
# WHAT THE FAILING MIN-MAX CELLS SHARE (J and O): in the three designs whose population has a
# group below min-max's largest loss, that group's loss interval fails, and only where the fit
# ties the group with the others:
#   d8k2m3n1000gaussp2 group a (truth 0.697, largest 0.958): tied in 33% of the fits, covered
#     0.06 there and 0.84 elsewhere, 0.58 in all;
#   d10k2m4n1000gaussp2 group a (1.254, 1.457): 21%, 0.00 and 0.78, 0.62;
#   d10k2m3n1000gaussp3 group a (1.024, 1.157): 37%, 0.14 and 0.81, 0.56;
# and min-max's smallest loss, loss gap and ratio with it (0.57-0.66). The group's loss carries
# its own near-tie's optimism (about one sd up), which with the noise lifts it into the tied set
# in a fifth to a third of the samples; an interval built around such a fit (or its bootstrap,
# whose replicates leave the set in 12-28% of cases) cannot reach the truth. Nor does the
# configuration the truth has: the group's loss under min-max fitted without it (a study outside
# the package, d8k2m3n1000gaussp2, 20 samples, a row bootstrap of 60 replicates with the audit's
# shifted percentile interval) sits above the tied level where the fit ties the group (1.17 and
# 1.22 against the fit's 0.89 and 0.94) and its interval covered in 1 of the 5 tied samples (13
# of 15 elsewhere): the sample's own loss of the group is too high (its best error's optimism and
# the noise that tied it), whichever subspace is used. So these cells are a detection problem,
# and tries 2 and 3 above show the replicates do not single the tied samples out.
#
# A fourth and fifth try at these cells (#44 item 1; 2026-12-04, studies outside the package
# with its intervals as merged, fp_near_tie_c = 0; none adopted):
#   4. Min-max refitted with every group's best error corrected for its whole own-tie bias (the
#      replicates' b plus the unseen u), the lead of the try above. d8k2m3n1000gaussp2, 24
#      samples: of the 9 whose fit ties group a, the refit drops a from the equalised set in 4,
#      but lowers its loss by only 0.01-0.06 (b + u 0.05-0.13): 0.79-1.01 against a truth of
#      0.697. The correction is a tenth of the distance; the rest is the noise that tied it.
#      On the audit's own prepared problem, min-max with group a's loss left out (its best
#      error raised by 10) puts a's loss at 0.86-1.18 in those 9 samples, above the tied estimate
#      in all (in the 15 others it equals the fit's): the sample does hold a among the worst.
#   5. The group's free share f, the share of replicates in which its loss lies below that
#      replicate's largest (by more than 1e-3 of it), on J, O and near_tie_c_judge2_grid() (19
#      designs, 50 samples each). f tells the two kinds of tied group apart: tied in the fit but
#      below the largest in the population, f >= 0.05 in 51 of 56 samples; tied in both, f >=
#      0.05 in 43 of 2,489 (three groups or more). But it cannot mend the interval: the truth lies
#      1.2-8.2 of the replicates' sds below the tied estimate and the 5% quantile of the free
#      replicates reaches it in 10 of those 51 samples. As a flag on min-max at that k (any
#      tied group with f >= tau), min-max's cells within / below / above against 142 / 103 / 38
#      unflagged: tau = 0.05 140 / 96 / 47, 0.1 141 / 97 / 45, 0.2 142 / 101 / 40, with over a
#      tenth of the intervals flagged in 6, 5 and 3 of the 19 designs (d12k2m3n1000poisp3, every
#      group tied in the population, 48% at 0.05): NOT ADOPTED. The same runs show the group's
#      interval missing where the fit does not tie it too (covered 0.74-0.79 there, the own
#      tie's optimism), and the groups tied in the population below 0.85 in 6 of 19 designs
#      (0.72-0.82 at 50 samples: d12k3m4n1000gaussp5, t10k2m3n1000gauss, t12k3m3n1000gaussp5,
#      d12k3m5n1000gaussp2, d12k3m3n1000gaussp4, d10k2m3n1000gaussp7).
#
# Mean matching's losses of a group with its own near-tie also lose the seen bias of its best
# error (#44 item 1; 2026-12-04, fp_audit_seen_best(); runs "2026-12-04f-cal-before" /
# "2026-12-04f-cal" and "2026-12-04f-before" / "2026-12-04f"). Try 1 above for mean matching
# alone. CALIBRATION, replicates of CAL and J replayed (100 samples, 10 designs), b taken off 0,
# 0.5, 1, 1.5 times; mean matching's cells within less below, above and flagged: 88, 96, 104,
# 102 -> 1 (within / below / above 125 / 21 / 16 -> 133 / 15 / 14; other methods untouched by
# construction). Rule fixed before the judging results: ADOPT if on mean_b_judge_grid() (six
# designs, 100 samples, fixed before any result) mean matching's cells within do not fall,
# below do not rise and their mean |coverage - 0.9| does not rise. JUDGED: 71 / 15 / 4 -> 71 /
# 14 / 5, mean |c - .9| 0.0340 -> 0.0337: ADOPTED, on a margin of one cell. Per cell the judge
# is mixed: group losses that rose 0.82 -> 0.90 (d8k2m2n1000gaussp13 a, with its largest loss),
# 0.88 -> 0.92, 0.87 -> 0.90, and fell 0.84 -> 0.75 (t12k3m3n1000gaussp16 a, the tie design's
# tied group), 0.82 -> 0.78 (d12k2m4n1000gaussp14 c); standard PCA's and min-max's cells are
# the same samples' and unchanged. The golden set moved in mean matching's loss-type intervals
# only.
#
# A sixth try, at max_loss_change (#44 items 1 and 3; 2026-12-04, runs "2026-12-04g-t5",
# "2026-12-04g" and "2026-12-04g-pairs"; NOT ADOPTED). t12k2m5n1000gauss, the five-group tie
# design, at 100 samples on main (run "2026-12-04g-t5"): min-max's max_loss_change covered 0.79
# and mean matching's 0.83, their estimates 0.98 and 0.66 of their sds below the truth: standard
# PCA's two largest losses are 2.34 and 2.33 in the population, so its largest is biased upwards
# and the change downwards, and the package's interval (the difference of the replicates'
# largest losses, centred on the estimate) keeps that bias. Tried: the interval from candidate
# pairs, as fp_max_interval() and fp_gap_interval() do: g among the fair method's candidates for
# the largest, h among standard PCA's, D_gh = L_g - Ls_h from the paired replicates; the change
# lies below max_g min_h of the upper ends (for g*, simultaneously over h) and above max_g min_h
# of the lower ends (for h*, over g), each side at one-sided level 1 - c (1 - level) / 2 (c = 1:
# 0.95), one pair the plain interval. On t12k2m5n1000gauss 0.79 -> 0.95 and 0.83 -> 0.98 (widths
# 1.11 -> 1.77 and 1.02 -> 1.61 of the estimates' sd). CALIBRATION, the replicates of 29 near-tie
# and judging designs of earlier runs replayed (CAL, J, O, near_tie_c_judge2_grid(),
# mean_b_judge_grid(); 100 samples, 58 cells), within / below / above and mean |c - 0.9|:
#   package 42 / 13 / 3  0.043;  pairs c = 1  34 / 6 / 18  0.050;  c = 1.5  39 / 8 / 11  0.051;
#   c = 2  38 / 12 / 8  0.051.
# JUDGING on change_judge_grid() (seven designs fixed before any result, 100 samples, drawn by
# the package and replayed; 14 cells): package 10 / 4 / 0, pairs (c = 1) 10 / 0 / 4, mean |c -
# 0.9| 0.0386 both. The pairs trade cells below for cells above, and on the calibration no c
# beats the package: not adopted. Shifting the package's interval once more by its replicates'
# bias (the bias-corrected centre) is worse still: calibration within 38 -> 25 of 54 cells,
# judging 10 -> 6 of 14; by half of it 36 and 9. The change's bias has either sign from design
# to design (-1.0 to +0.9 of its sd); the package's interval stays.
#
# Twenty well-behaved designs at 100 samples (#44 item 1; run "2026-12-04h", on main bd44d46,
# before the flag below): twelve drawn from the 120 well-behaved designs of the full grid with
# set.seed(20261204); sample(120, 12), eight more of 36 drawn from the rest with seed 20261205
# (the other 28 not run: time). 804 cells: 503 within, 117 below, 83 above, 101 flagged. The
# thirteen designs with distinct groups or a tie: 445 / 65 / 23 / 0, mean reliable coverage
# 0.892, below mostly 0.80-0.84 (the worst: standard PCA's loss ratio 0.74 at t4k1m5n1000gauss,
# min-max's errors 0.77 at d12k3m5n1000gauss and t4k1m3n1000gauss). The seven alike designs
# (every group from one population): 58 / 52 / 60 / 101, flagged in 23-79% of their intervals
# (mean matching: the group means the data do not fix; min-max: a kink), and standard PCA's
# variance kept covered 0.00 and its errors 0.29-0.64 unflagged in about 69% of the samples:
# the Gaussian alike design has a diagonal covariance, which scale. = TRUE makes isotropic, so
# every pooled eigenvalue is tied, and the pooled near-tie flag (the gap at k alone) fired in a
# third of the samples.
#
# Standard PCA flagged where a block of pooled eigenvalues around k is tied within noise (#44
# item 1; runs "2026-12-04i-cal-before" / "-cal" and "2026-12-04i-before" / "2026-12-04i";
# fp_audit_pooled_optimism(), fp_pooled_optimism_max). The unseen bias of the pooled top-k sum
# (fp_own_tie_bias() on the pooled spectrum of all rows, the fourth candidate named in the
# release rule's try above) over the sd of standard PCA's variance kept in its replicates; above
# tau standard PCA's intervals at that k are flagged. Rule fixed before any result: CALIBRATION
# on a12k3m3n1000gauss (100 samples, drawn on main with DRAWS_SAVE) and the 16 designs of CAL, J
# and O (replayed), tau in {0.25, 0.5, 1}, tau* maximising standard PCA's cells within less
# below, above and flagged (ties to the smaller). JUDGING on near_tie_c_judge2_grid() and
# mean_b_judge_grid() (13 designs, their saved replicates) and two alike designs not run before
# (a12k1m3n3000gauss, a12k2m5n1000gauss; 100 samples drawn on main, replayed): ADOPT if on the
# 13 standard PCA's cells within do not fall and its flagged cells rise by at most one, and on
# the alike designs its cells below fall. Calibration, standard PCA's within / below / above /
# flagged (score): package 170 / 39 / 24 / 0 (107); 0.25 165 / 34 / 21 / 13 (97); 0.5 165 / 33
# / 22 / 13 (97); 1 167 / 33 / 20 / 13 (101): tau* = 1 (no tau beats the package on this score,
# which counts the alike design's standard cells that covered, its losses 0.9-1.0, as lost when
# flagged; it fires in at most 11% of a distinct design's samples, t12k2m3n3000gauss).
# JUDGED: the 13 designs 132 / 25 / 10 / 0 -> 132 / 25 / 10 / 0, no standard cell's coverage or
# flagged share moved; the alike designs 3 / 18 / 9 / 0 -> 0 / 0 / 0 / 30 (flagged in 90-100% of
# the samples; variance kept 0.00, errors 0.64-0.84 before): ADOPTED. Other methods untouched by
# construction; the golden set did not move. Left: min-max in the alike designs where its kink
# flag does not fire (a4k1m5n3000gauss: its losses 0.71-0.78, variance kept 0.48, flagged 14%).
#
# Twenty-eight more well-behaved designs at 100 samples, and four alike ones (#44 item 1; run
# "2026-12-04j", on main 7f01ccb, whose intervals are bit for bit 9469e92's): the other 28 of
# the 36 drawn with seed 20261205 (see run "2026-12-04h" above) and the alike designs
# a4k1m5n3000gauss, a4k1m3n3000gauss, a4k1m5n1000gauss, a4k1m2n3000pois again after the pooled
# optimism flag (fp_pooled_optimism_max, judged at d = 12 only). 1,335 cells: 788 within, 150
# below, 178 above, 219 flagged. The 19 designs with distinct groups: 664 / 85 / 37 / 0, mean
# reliable coverage 0.892, 0.4% of their intervals flagged (standard 213 / 25 / 11, min-max
# 213 / 43 / 13, mean matching 238 / 17 / 13). Their cells below gather in five designs:
# d12k3m2n3000gauss 14 (group a's losses 0.65-0.66 for standard PCA and min-max),
# t12k2m5n1000gauss 13, t12k1m5n1000gauss 12 (min-max's loss of group a 0.68),
# d12k3m2n1000gauss 8, t12k1m2n1000gauss 7. The 13 alike designs: 124 / 65 / 141 / 219,
# flagged in 32-99% of their intervals (mean matching in all); standard PCA's at a4k1 (Gaussian)
# flagged in 73-79% of the samples, its variance kept covering 0.00 unflagged.
#   Why d12k3m2n3000gauss fails (found on its saved replicates; not yet mended): with scale. =
# TRUE group a's spectrum is nearly flat (1.30, 1.23, 1.21, 1.20, 1.20, 1.19, 1.18, 1.14, ...:
# the gap at k = 3 is 0.25 of its noise sd), so its best error is biased downwards by the
# optimism of its top-3 sum, 0.143 in the audit's normalised units (Gaussian simulation at the
# population's spectrum, 600 draws), of which a bootstrap at the sample's spectrum sees 0.092 and
# fp_own_tie_bias() finds the rest (0.046 on average over 30 samples, against 0.050). The loss's
# intervals take off only the unseen part u: they are centred on the estimate (the seen bias is
# not taken off, see "centred on the estimate" in ?fair_audit), so group a's loss sits 1.5 of its
# sds above the truth (estimate +0.117 over the truth, 2.5 sds; centre +0.071). Taking the best
# error's seen bias off as well was tried for standard PCA (the first of the three tries above:
# it hurt where the error's own optimism cancels it). TRIED AND NOT ADOPTED (runs
# "2026-12-04k-cal" and "2026-12-04k-judge", standard PCA's rows at c = 0.5): the loss's own seen bias
# (b_loss, the loss replicates' mean less the estimate, the error's and best error's together)
# taken off c times as well as u where u > 0 and b_loss > 0. Rule fixed before any result but
# this design's diagnosis: CALIBRATION on the twelve calibration designs of the min-max try
# below and d12k3m2n3000gauss (saved replicates replayed), c in {0, 0.5, 1}, c* maximising
# standard PCA's cells within less below, above and flagged (ties to the smaller c): 127 / 22 /
# 28 / 0 (77), 129 / 20 / 28 / 0 (81), 129 / 20 / 28 / 0 (81): c* = 0.5 (d12k3m2n3000gauss's
# group a loss 0.65 -> 0.82, 0.93 at c = 1). JUDGING on the other 19 designs of run j: ADOPT
# if standard PCA's cells within do not fall, below do not rise and mean |coverage - 0.9| does
# not rise: 152 / 21 / 56 / 24 (0.0737) -> 152 / 22 / 55 / 24 (0.0739). NOT ADOPTED; at c = 1
# (for information) 151 / 26 / 52 / 24 (0.0753). The losses it moved elsewhere moved by 0.01-0.04
# either way (d12k3m2n1000gauss's group b 0.83 -> 0.81, d12k1m2n1000gauss's 0.91 -> 0.95): the
# loss's seen bias is too noisy a correction where the near-tie is mild.
#
# Min-max flagged by the pooled covariance's tie around k (#44 item 1; runs "2026-12-04j-cal-0.5",
# "-cal-1", "-judge-1"; TRIED AND NOT ADOPTED). In the alike designs (every group from one
# population) min-max's losses covered 0.71-0.79 and its variance kept 0.44 at a4k1m5n3000gauss,
# flagged by its kink in 14% of the samples. Three rules, on that design's saved replicates: (A)
# the unseen optimism of the top k of min-max's dual-weighted matrix M = sum_g w_g C_g
# (fp_own_tie_bias() on M's spectrum, 1 / sum_g w_g^2 / n_g rows) over min-max's variance-kept
# replicates' sd, flagged 14-56% of the samples at tau 0.25-2; (B) the same over the top-k sum's
# Gaussian sd, 14-20%: M is tied at k by construction (its k-th and (k + 1)-th eigenvalues are
# equal at min-max's optimum), so the simulation finds nothing unseen there; (C) min-max flagged
# where standard PCA's pooled optimism exceeds tau sds of standard PCA's variance-kept
# replicates, 88-94% at tau 0.25-0.5. Rule C fixed before any other result: CALIBRATION on
# a4k1m5n3000gauss, a4k1m3n3000gauss and the first ten designs of run j above (replicates
# replayed), tau in {0.25, 0.5, 1, 2, Inf}, tau* maximising min-max's cells within less below,
# above and flagged (ties to the larger tau); standard PCA's own tau recalibrated alongside on
# {0.25, 0.5, 1} (its old calibration's scores 97 / 97 / 101 added). Min-max: 0.25 and 0.5
# 109 / 18 / 23 / 34 (score 34), 1 119 / 38 / 27 / 0 (54), 2 and Inf 118 / 37 / 29 / 0 (52);
# standard PCA: 0.25 and 0.5 107 / 12 / 17 / 30 (48), 1 119 / 19 / 28 / 0 (72): tau_s stays 1,
# tau_m* = 1. The distinct designs' cells did not move at any tau. JUDGING on the other 20 (two
# alike a4 designs and the 18 others of run j): ADOPT if min-max's cells below fall: 153 / 53 /
# 52 / 26 -> 154 / 53 / 51 / 26, only a4k1m5n1000gauss moved (flagged 16% -> 57% of samples,
# its cells below 12 -> 12). NOT ADOPTED. (The score counts a flagged cell as lost even where
# the cell covers 0.00 unflagged; at tau 0.5 both methods' alike a4 cells are all flagged.)
#
# The last 72 well-behaved designs at 100 samples, and two corrections judged on them (#44 item
# 1; runs "2026-12-04l" on main 6684c0d, replicates saved; "2026-12-04m" the same replicates
# replayed on the package after both corrections). With runs h and j every one of the 120
# well-behaved designs of the full grid has now been run at 100 samples. Queue: the 72 not run,
# the 40 with distinct groups or a tie first (order drawn with seed 20261206), then the 32 alike.
#   Run l (the package before): the 40 designs 1,405 within, 256 below, 98 above, none flagged
# (0.9% of their intervals flagged, at most 9.8% of a design's), mean reliable coverage 0.889;
# standard PCA 463 / 64 / 31, min-max 450 / 127 / 43, mean matching 492 / 65 / 24; 57 cells
# below 0.80. The 32 alike designs 186 / 100 / 257 / 839 (mean matching flagged in all but 13
# of its 464 cells).
#   Min-max's equalised losses (found on two of the 40, d12k3m3n1000gauss and d12k2m3n3000gauss,
# replayed with the samples' CSV): their estimate sat 1.20 and 0.75 of its sds above the truth,
# the replicates' mean 0.85 and 0.66 sds above the estimate, and the intervals, centred on the
# estimate, 0.90 and 0.69 sds high (widths 0.98-0.99 of the estimates' spread): covered 0.74 and
# 0.75; group a's error as much below. RULE M, fixed before any result of it: min-max's errors
# and losses of every group centred on the estimate less c times the replicates' bias (as
# fp_audit_small_bias() does for small groups). CALIBRATION on run j's 32 designs (replicates
# replayed): min-max's cells within / below / above / flagged (score = within less the rest) at
# c = 0 271 / 90 / 81 / 26 (74), 0.5 284 / 78 / 80 / 26 (100), 1 280 / 82 / 80 / 26 (92): c* =
# 0.5. JUDGING on the 38 others of the 40 (replicates replayed; ADOPT if min-max's cells below
# fall, within do not fall and mean |coverage - 0.9| does not rise): 440 / 111 / 39 / 0 (0.0392)
# -> 457 / 87 / 46 / 0 (0.0365). ADOPTED (fp_minmax_bias_c = 0.5).
#   Standard PCA's loss of a group with its own near-tie (the try of run k above, redone): the
# loss's seen bias (replicates' mean less estimate) taken off helped where the pooled fit is
# smooth (d12k3m2n3000gauss, pooled gap 3.5 noise sds: 0.65 -> 0.93) and hurt where the pooled
# eigenvalues around k are close (d12k3m2n1000gauss 1.5 sds: group b 0.83 -> 0.77): there the
# error's own optimism is partly unseen too. RULE S, fixed before any result of it: the loss's
# seen bias taken off with weight w = clamp(z - t0, 0, 1), z the pooled gap at k less its
# replicates' bias over their sd. CALIBRATION on run j's 32 designs: standard PCA's scores at
# t0 = Inf (the package) 128 (279 / 43 / 84 / 24), 1 and 2 134 (282 / 42 / 82 / 24), 3 128:
# t0* = 2 (ties to the larger). JUDGING on the 40 designs (ADOPT if standard PCA's cells below
# fall, within do not fall, mean |coverage - 0.9| does not rise): 463 / 64 / 31 (0.0320) ->
# 468 / 62 / 28 (0.0319). ADOPTED (fp_own_tie_seen_loss_t0 = 2). A small gain: w reaches the
# tie designs' samples too where their pooled gap is wide, and there it overshoots a little.
#   Run m (both): the 40 designs 1,426 / 231 / 102 / 0, mean reliable coverage 0.891, cells below
# 0.80 57 -> 36; standard PCA 468 / 62 / 28, min-max 466 / 104 / 50, mean matching unchanged;
# the alike designs 186 / 101 / 256 / 839. Still below: d12k2m2n1000gauss 19 cells (min-max's
# max_loss_change 0.55, its group a's error 0.80), d12k3m3n1000gauss 17, d12k1m5n1000gauss 13 (mean
# matching's loss ratio 0.61), t12k1m3n3000gauss 13, d12k2m3n3000gauss 12; most other cells
# below sit at 0.80-0.84, where a cell of true coverage 0.90 falls with probability 0.04 at 100
# samples. Item 1 is not met on these: 13% of the well-behaved distinct designs' cells below.
#
# Session of 2026-12-05, later (#44 item 1; main ca053f7; plan written before any result of each
# rule, with its candidates, calibration set, judging set and adoption rule). judge19_grid(): 20
# well-behaved designs drawn fresh (pops 101-120) on the package, replicates saved (run
# "2026-12-05c-before"). CALIBRATION: the 111 designs with saved replicates (the 71 below,
# judge18b's and judge18c's 20 each, all looked at before), reconstructed offline from their
# samples and replicates (equal to the package's replay to 1e-15 where checked).
#   RULE V: a quantity centred on its estimate less c times its replicates' bias (the in-sample
# optimism: on those designs the variance kept's estimates sat a median 0.13-0.23 of their sds
# above the truth, the groups' errors 0.08-0.09 below, and the replicates showed most of it).
# c in {0, 0.25, 0.5, 0.75, 1}: every method's variance kept cells (within less below, above,
# flagged) 215, 243, 247, 245, 231 -> 0.5; standard PCA's and mean matching's group errors 516,
# 512, 498, 474, 446 -> 0 (the replicates' bias of an error is noisy from sample to sample: not
# adopted). JUDGING the variance kept's half on judge19: its cells 50 / 10 / 0 / 0 (mean
# |coverage - 0.9| 0.0343) -> 54 / 6 / 0 / 0 (0.0304): ADOPTED (fp_var_kept_bias_c; run
# "2026-12-05c-vk", variance kept rows).
#   RULE W: the replicates read at a nominal level L' above the level, L' = 2 Phi(kappa z) - 1,
# z = Phi^-1((1 + level) / 2). The package's groups' error, loss and variance kept cells covered
# 0.884 on average at level 0.9 with widths 1.02-1.05 of the estimates' spread: the width's
# sample-to-sample noise (coefficient of variation 0.12-0.15) and small centre offsets cost the
# rest. L' in {0.90, 0.91, 0.915, 0.92, 0.93} on the 111 (those cells, offline): 1657, 1853,
# 1899, 1915, 1767 -> 0.92 (kappa = Phi^-1(0.96) / Phi^-1(0.95)). JUDGING on judge19 (replayed,
# every cell, V before and after): 683 / 97 / 68 / 0 (0.0343, mean reliable coverage 0.893) ->
# 693 / 40 / 115 / 0 (0.0328, 0.913): ADOPTED (fp_interval_level(); run "2026-12-05c").
# Standard PCA 216 / 32 / 12 -> 220 / 16 / 24, min-max 226 / 36 / 26 -> 227 / 15 / 46, mean
# matching 241 / 29 / 30 -> 246 / 9 / 45.
#   The 111 calibration designs replayed on the package before (ca053f7, run "2026-12-05-cal-
# before") and after V and W ("2026-12-05-cal-vw"), every cell: 3,814 / 648 / 265 / 0 (mean
# reliable coverage 0.889) -> 3,989 / 258 / 480 / 0 (0.910); 0.6% of the intervals flagged in
# both. judge19 on the package before: 679 / 101 / 68 / 0. What is left: 5% of the fresh cells
# below (pure sampling noise at 100 samples gives about 4%), 14% above: min-max's loss gap and
# ratio where the population's losses tie (their intervals start at the truth) and cells whose
# intervals are now a little wide (mean coverage 0.91).
#   RULE W2 (fixed after the above, before any result on its judging set): the loss and error
# gaps read at the level itself, not widened (their interval, from simultaneous intervals of the
# candidates' differences and from 0 where one reaches 0, is conservative by construction; on
# the 111 their cells moved 455 / 52 / 115 -> 424 / 25 / 173 under W: within fell). JUDGING on
# judge19b_grid()'s 20 designs drawn fresh (pops 121-140) on the package with W (run
# "2026-12-05d"), replayed with W2 (run "2026-12-05d-w2", gap rows): gap cells 69 / 5 / 43 / 0
# (0.0475) -> 80 / 9 / 28 / 0 (0.0456). Below rose: NOT ADOPTED. judge19b on the package, every
# cell: 735 / 51 / 116 / 0 of 902, mean reliable coverage 0.910 (standard PCA 230 / 10 / 36,
# min-max 245 / 23 / 42, mean matching 260 / 18 / 38).
#   Shard 2/80 of the full grid on the package with W (run "2026-12-05e-full", 30 samples per
# design, 32 designs, d 4-50): 1,401 cells, 11 within, 5 below, 25 above, 1,360 flagged (heavy
# tails, too few rows for the directions, the alike designs' undetermined subspaces and mean
# directions). Its two well-behaved designs are alike (a12k2m2n3000gauss: standard PCA's
# subspace undetermined after scaling, every cell flagged; a12k1m2n3000pois: mean matching's
# mean direction not fixed, flagged; the others 4 / 2 / 16: losses and gaps of 0 whose
# intervals start at 0).
#
# Session of 2026-12-06, sixth (#44 item 1; run on a build of 9730861, whose intervals are main
# 44d22e9's: only the cost estimate and door messages changed between them). RULE MR (plan written
# before any result of it, from judge43's two controls above: min-max's equalised losses at 30.6-31.8
# rows per direction, d = 24 and 50, covered 0.61-0.72 with their estimates about 3 sds above the
# truth and half the replicates' bias taken off). Min-max's errors and losses take off a share of
# their replicates' bias that falls with the smallest group's rows per direction rho = min n /
# (k (d - k)): all of it at rho <= 25 (fp_small_group_rho, as today), fp_minmax_bias_c = 0.5 at
# rho >= 40 (as today; rule MB's well-behaved designs at d = 12, k = 3, 1,000 rows have 37 and
# stay within 0.05 of it), linear between, where today the share jumps from 1 to 0.5 at 25. Only
# min-max's groups' errors and losses and what is built from them move; nothing outside 25 <= rho
# < 40. SEEN (calibration, replays of the same draws): judge43's controls d24k2m3n1400gaussp598
# and d50k1m3n1500gaussp597, 60 samples. JUDGE: `judge46_grid()`, 12 designs drawn fresh (pops
# 625-636) with rho 26-37 in the smallest group, d 8-50, 2-5 groups, Gaussian and Poisson, one
# unequal, one tie; 60 samples on main with replicates saved, replayed with the rule. Adopted if
# among min-max's cells fails fall, passes rise and pass -> fail <= fail -> pass / 4, and
# standard PCA's and mean matching's cells are identical.
#   RESULT: NOT ADOPTED (failed at calibration). SEEN (run "2026-12-06w-cal-mr-before", 60 samples
# on main, replicates saved; "2026-12-06w-cal-mr" the rule's replay): standard PCA's and mean
# matching's cells identical; min-max's 30 cells 12 within, 11 below, 3 above, 4 flagged before
# and after: the equalised losses (5 cells a design) 0.610 -> 0.756 at d50k1m3n1500gaussp597
# (share 0.81) and 0.717 -> 0.750 at d24k2m3n1400gaussp598 (share 0.77); one error 0.927 ->
# 0.878. Even all of the bias taken off (run "2026-12-06w-cal-mr-all", share 1 at every rho above
# 25) leaves them at 0.829 and 0.833: there the estimate sits about 3 sds above the truth and the
# bootstrap sees about all of it, but the corrected centre (estimate less the replicates' bias)
# spreads more from sample to sample than the estimate, by the bias estimate's own noise, which
# the interval's width leaves out. No share of the seen bias reaches the band, so no ramp can:
# what is missing is the width of a bias-corrected centre (a double bootstrap's quantity), or a
# flag. JUDGE, run for the record (a status measurement of main on fresh populations at 26-37 rows
# per direction; run "2026-12-06w-judge46", 60 samples, 12 designs, 510 cells): 395 within, 45
# below, 48 above, 22 flagged; of the 488 unflagged cells 7 cover clearly less than 0.85 (1.4%;
# mean matching 3, standard PCA 2, min-max 2: its variance kept 0.72 at d16k2m5n900gaussp631 and
# its price 0.46 at d30k1m2n900_3000gaussp633) and 7 clearly more than 0.95; pooled reliable
# coverage 0.899; every design flags at most 9.8% of its intervals except d50k1m2n1800gaussp626
# (21.4%). Min-max's cells 129 within, 23 below, 4 above, 18 flagged. The rule's replay there
# ("2026-12-06w-judge46-mr"): min-max's fail -> pass 8, pass -> fail 4 (against the criterion's
# at most 2), pooled 0.878 -> 0.886, mean |coverage - 0.9| 0.0377 -> 0.0385. So the band of 26-37
# rows per direction is mostly calibrated on populations drawn fresh, and judge43's two controls
# are its hard end, which neither share of the seen bias nor this rule reaches.
#   Eleven more shards of the full grid, never run before: 1, 3, 4, 6, 8, 9, 11, 21, 23, 24, 26
# (run "2026-12-06w-full", 30 samples, the 9730861 build, one process each at nice 5, 12-25 min
# a shard): 352 designs, 15,389 cells: 674 within, 180 below, 287 above, 14,248 flagged in >= 80%
# of their samples (92.6%; by shard 85.7-98.9%, the reasons as before: too few rows for the
# directions, heavy tails, group means not fixed, no direction stands out). Of the 1,141
# unflagged cells 6 cover clearly less than 0.85 (0.5%) and none clearly more than 0.95: min-max's
# loss ratio at t4k1m5n60_3000gauss (0.55 of 11 reliable; the design flags 29%), standard PCA's
# loss of the 60-row group e at d4k1m5n60_3000pois (0.67 of 18; flags 72%), mean matching's loss
# ratio at d20k1m2n1000gauss (0.63; flags 6.1%), and three in well-behaved designs: standard PCA's
# error of c 0.71 and loss of b 0.68 at d12k3m3n1000gauss (flags 6.7%; a design of the near-tie
# study above, bench/near-tie-interval.R) and mean matching's max_loss_change 0.67 at
# t12k3m5n3000gauss (flags 3.6%). Well-behaved designs: the 14 distinct or tied ones flag 0-6.7%
# of their intervals (none above 10%); the 7 alike ones 60-100% (the lead's call, as before).
# With them 43 of the 80 shards have been run (those numbered 0 or 2 modulo 5, and these); the
# other 37 (13, 14, 16, 18, 19, 28, 29, 31, 33, 34, 36, 38, 39, 41, 43, 44, 46, 48, 49, 51, 53,
# 54, 56, 58, 59, 61, 63, 64, 66, 68, 69, 71, 73, 74, 76, 78, 79) have not.
#
# Session of 2026-12-07 (#44 item 1; a status measurement, no rule changed; run
# "2026-12-07a-full", 30 samples, on a build of b1a6af3, whose intervals are today's: this
# session's changes leave the audit's intervals on data in range as they were). The session's
# first shards stopped at once: new_group_moments() now takes whole row counts, and truth_of()
# gave it a million rows in the design's proportions, not whole; it now gives whole counts in
# the same proportions (the truths of d4k1m2n1000gauss are identical, 35 cells). RUN: shards 19,
# 28, 29 and 31, never run before. RESULT: shard 19, 32 designs, 1,389 cells: 102 within, 26
# below, 65 above, 1,196 flagged (86.1%); shard 28, 1,401 cells: 17 / 1 / 14 / 1,369 (97.7%);
# shard 29, 1,389 cells: 95 / 25 / 39 / 1,230 (88.6%); shard 31, 1,389 cells: 142 / 34 / 46 /
# 1,167 (84.0%). New unflagged cells clearly below 0.85: min-max's variance kept 0.64 and error
# of group c 0.68 at d4k1m3n100gauss (100 rows per group; the design flags 13.7%), mean
# matching's max_loss_change 0.70 at d4k1m2n300gauss (flags 10.0%), its loss of c 0.60 at
# d4k1m3n100pois (flags 54.5%, the cell 50%) and standard PCA's error of a 0.55 at t4k1m5n100t5
# (flags 94.5%, the cell 63%). Over the 994 designs now on today's intervals: 43,358 cells, 88.1%
# flagged, 52 of 5,167 unflagged cells clearly below 0.85 (1.0%), none clearly above 0.95; 29
# shards complete; the well-behaved summary is unchanged (no well-behaved design in these shards
# was new). Shards never run: 29 (33, 34, 36, 38, 39, 41, 43, 44, 46, 48, 49, 51, 53, 54, 56, 58,
# 59, 61, 63, 64, 66, 68, 69, 71, 73, 74, 76, 78, 79). A diagnosis, not acted on: min-max's
# max_loss_change at d12k2m2n1000gauss (0.60 above) in 30 fresh samples of the design (samples
# kept outside the repository): the truth -0.095, the estimates' mean -0.178, the intervals'
# mean [-0.279, -0.090], centred on the estimate; the change's in-sample bias (-0.083, standard
# PCA's largest loss 0.145 above its truth, min-max's 0.062) is about one half-width and the
# replicates do not see it (bias the bootstrap cannot see, as for the small losses at d = 20;
# see "TRIED AND NOT ADOPTED" above).
#
# Session of 2026-12-07, second (#44 item 1; a status measurement, no rule changed; run
# "2026-12-07b-full", 30 samples, on a build of c0ad4fc, whose intervals are today's; the
# session's later change to the tail index gives the same values bit for bit). RUN: shards 33
# and 34, never run before. RESULT: shard 33, 32 designs, 1,409 cells: 117 within, 37 below, 51
# above, 1,204 flagged (85.5%); shard 34, 1,409 cells: 10 / 0 / 8 / 1,391 (98.7%). No new
# unflagged cell clearly below 0.85, none clearly above 0.95. Over the 1,056 designs now on
# today's intervals: 46,066 cells, 88.5% flagged, 52 of 5,319 unflagged cells clearly low
# (1.0%); 31 shards complete; the well-behaved summary is unchanged. Shards never run: 27 (36,
# 38, 39, 41, 43, 44, 46, 48, 49, 51, 53, 54, 56, 58, 59, 61, 63, 64, 66, 68, 69, 71, 73, 74, 76,
# 78, 79).
#
# Session of 2026-12-08 (#44 item 1; a status measurement, no rule changed; run
# "2026-12-07f-full" continued, the build of 07a9384, whose intervals are those of 5a8448b: the
# audit code changed since only in comments and in reporting losses within rounding of 0 as 0;
# main's later changes leave the audit's numbers as they were). RUN: shards 69, 71, 73, 74, 76, 78 and
# 79, the last never run. RESULT (within / below / above / flagged): shard 69, 31 designs, 1,366
# cells: 126 / 36 / 50 / 1,154 (84.5% flagged); 71, 1,366: 109 / 22 / 48 / 1,187 (86.9%); 73,
# 1,346: 88 / 28 / 48 / 1,182 (87.8%); 74, 1,346: 21 / 3 / 10 / 1,312 (97.5%); 76, 1,346: 14 / 3
# / 8 / 1,321 (98.1%); 78, 1,354: 20 / 10 / 7 / 1,317 (97.3%); 79, 1,354: 80 / 13 / 37 / 1,224
# (90.4%). Eight new unflagged cells clearly below 0.85: standard PCA's losses at d = 50, k = 1
# (d50k1m5n3000gauss loss of a and min_loss 0.70, t50k1m5n3000gauss loss_ratio 0.63, max_loss
# and loss_gap 0.70), standard PCA's error of b at d50k1m3n60_3000gauss 0.65 (the design flags
# 98%), and two far below: min-max's loss of group a and min_loss at d50k1m5n3000gauss, 0.28 of
# 25 (the design flags 9.8%). In that population min-max equalises b-e at 0.984 and leaves a out
# at 0.887; bench/audit-minmax-bias.R (40 fresh samples) puts a's estimate at 0.994 (sd 0.036),
# a bias of 0.106 = top 0.123 + fit -0.005 + scaling 0.008 + subspace -0.019, with a in the
# sample's active set in 55% of samples: the group's top eigenvalue is biased up at d = 50 (its
# best error down), the same family as rule MO's left-out group (session of 2026-12-06, fifth:
# the replicates do not see that bias). Over the 1,856 designs now on today's intervals: 81,143
# cells, 92.0% flagged, 56 of 6,496 unflagged cells clearly low (0.9%; 15 by chance at 0.90, 62
# at 0.875), none clearly high, 6 far below 0.85; 58 shards complete; every shard has now run at
# least once (22 only under earlier rules: 2, 5, 7, 10, 12, 15, 17, 20, 22, 27, 30, 32, 37, 40,
# 42, 47, 52, 57, 62, 67, 72, 77); the well-behaved summary is unchanged.
#
# Session of 2026-12-07, seventh (#44 item 1; studies, no rule changed). Min-max's losses.
# bench/audit-coverage-status.R now pools the unflagged cells' reliable samples by method, kind
# of quantity, distribution and rows per direction (the smallest group's n / (k (d - k))). On
# today's intervals (1,657 designs, after the shards below) min-max's losses (a group's loss and
# every quantity made of losses) cover, on Gaussian data, 0.865 (3,731 cell-samples) at 25-40
# rows per direction, 0.885 (5,218) at 40-100 and 0.898 (7,794) from 100; on Poisson data
# 0.910 / 0.919 / 0.903. Min-max's other quantities 0.886 / 0.898 / 0.906 (Gaussian); standard
# PCA's and mean matching's 0.896-0.924 from 25 rows per direction on.
# A bias that shrinks with rows per direction, shared by many cells below the binomial test's
# reach. Its two far-below cells, split by bench/audit-minmax-bias.R (60 fresh samples each;
# estimate - truth = top, the group's top-k eigenvalue sum's bias, + fit, the population's
# variance kept at the sample's projection or map less the sample's, + scaling, the sample's
# column scaling, + subspace, the population's loss at the sample's projection less at its own):
#  * t4k1m3n300gauss, group a (loss a covered 0.38): truth 0.190, estimate 0.338 (sd 0.136),
#    bias 0.148 = top 0.048 + fit 0.020 + scaling -0.001 + subspace 0.081; group a is in the
#    sample's active set in 43% of samples, not in the population's. The tie is in group a's raw
#    spectrum (4, 3.96); after scale. = TRUE its spectrum is 1.28, 1.08, 1.05, 0.73: no tie at
#    k = 1, and the own-tie bias u is 0.016 on average (on the raw spectrum fp_own_tie_bias()
#    with the bootstrap's seen part finds 0.06-0.29 of the top eigenvalue's bias of 0.28, on 8
#    samples).
#  * d12k1m2n300gauss (27 rows per direction, just above the flag at 25; losses 0.40-0.55):
#    truth 0.118 for both groups, estimate 0.292 (sd 0.072), bias 0.173 = 2.4 sds: group a top
#    0.222 + fit -0.130 + scaling 0.042 + subspace 0.039, group b 0.076 - 0.099 + 0.022 +
#    0.174. The replicates show 0.91 of their sd (z_own), and min-max's centre takes off half of
#    it (fp_minmax_bias_c): the bootstrap sees about 40% of this bias.
# ACTIVE-SET SWITCHING is not the cause: FAIRPROJ_BENCH_DIAG now records min-max's `switch`, the
# share of replicates whose active set (groups within 1% of the largest loss) differs from the
# sample's. 8 designs x 30 samples (samples not appended; t4k1m3n300gauss, d12k1m2n300gauss,
# d4k1m3n1000gauss, d12k2m5n1000gauss, d12k3m3n1000gauss, t12k1m3n3000gauss, d12k1m5n1000gauss,
# d4k1m5n1000pois): median share 0.24 / 0 / 0.06 / 0 / 0 / 0 / 0.24 / 0.45. Coverage of
# min-max's reliable loss intervals at share <= 0.2 / > 0.2: t4k1m3n300gauss 0.65 / 0.73,
# d12k1m5n1000gauss 0.90 / 0.83, d4k1m3n1000gauss 0.93 / 0.88, d4k1m5n1000pois 1.00 (8) / 0.90
# (192); d12k1m2n300gauss never switches (0.58). A flag on switching would fire in 97% of the
# well-behaved d4k1m5n1000pois's samples and miss both far-below cells.
# NEXT (not started: a rule needs a calibration set's saved replicates, a fresh judging set, and
# a rerun of every grid design with min-max below 100 rows per direction): min-max's share of
# the replicates' bias (fp_minmax_bias_c, 0.5; all of it at 20-25 rows per direction) as a
# function of rows per direction, 1 at 25 falling to 0.5 by about 100; or the intervals of
# min-max's losses flagged below a rows-per-direction bound of their own, if the well-behaved
# designs' 10% allows it (d12k3 at 1,000 rows has 37 rows per direction).
# Then shards never run before (run "2026-12-07f-full", a build of 07a9384, whose intervals are
# those of 5a8448b: the audit code changed since only in comments and in clamping losses within
# rounding of 0), 30 samples per design, two processes at nice 10, 17-24 min each; counts within
# / below / above / flagged: shard 59, 31 designs, 1,366 cells: 98 / 23 / 59 / 1,186 (86.8%
# flagged); 61, 31 designs, 1,346 cells: 130 / 34 / 43 / 1,139 (84.6%); 63, 1,346 cells: 105 /
# 24 / 39 / 1,178 (87.5%); 64, 1,346 cells: 9 / 6 / 4 / 1,327 (98.6%); 66, 1,354 cells: 5 / 1 /
# 8 / 1,340 (99.0%); 68, 1,354 cells: 8 / 0 / 7 / 1,339 (98.9%). No new unflagged cell clearly
# below 0.85 or above 0.95. Over the 1,657 designs now on today's intervals: 72,432 cells, 91.4%
# flagged, 48 of 6,235 unflagged cells clearly low (0.8%; 14 by chance at 0.90, 60 at 0.875),
# none clearly high; 51 shards complete; the well-behaved summary unchanged. Never run: 7 shards
# (69, 71, 73, 74, 76, 78, 79).
#
# Session of 2026-12-07, sixth (#44 item 1; a study, no rule changed). Mean matching's seen bias.
# The well-behaved d12k1m5n1000gauss's mean-matching min_loss (0.53 of 30 unflagged in run
# "2026-12-06x-full"; 0.65 of 60 on a rerun) sits low because of fp_audit_seen_best(): it takes
# off a group's loss the bias of its best error that the replicates show (b) wherever the group's
# own-tie bias u is positive at all, and u is positive wherever the group's eigenvalues k and
# k + 1 are within 4 sds of their gap's noise. There u was 1e-4 to 0.05 for most groups and b
# 0.02 to 0.08: group a's loss interval sat 0.09 below its estimate (0.9 of the loss's sd), the
# estimate itself 0.02 below the truth; loss a covered 0.65, and the smallest of five losses
# within 0.04 of one another (a 0.902, e 0.901, b 0.918, c 0.940) 0.50. STUDY (bench/audit-mean-
# seen.R, cells in bench/audit-mean-seen.csv): 14 designs fixed before any result (CAL's four,
# mean_b_judge_grid()'s six, d12k1m5n1000gauss and three well-behaved distinct designs), 20
# samples each, the same samples under four configurations: the package; b never taken off; b
# weighted by the group's own gap at k in sds of its noise, 1 within 1 (or 2) and 0 from 2 (or
# 3). Mean matching's loss-based cells reported reliable (119 per configuration): pooled coverage
# 0.893 / 0.898 / 0.891 / 0.894, cells below 0.8: 12 / 9 / 15 / 14, above 0.97: 19 / 20 / 20 /
# 18, mean |coverage - 0.9| 0.066 / 0.069 / 0.072 / 0.066. d12k1m5n1000gauss 0.820 / 0.885 /
# 0.850 / 0.830 (its min_loss 0.50 / 0.80 / 0.65 / 0.55), but d10k2m3n1000gaussp11 0.900 / 0.863
# / 0.863 / 0.881 and d8k2m2n1000gaussp13 0.979 / 0.929 / 0.979 / 0.979. NOT ADOPTED: no
# configuration is better on the set as a whole at this precision, and the package's rule was
# calibrated at 100 samples on CAL and judged on mean_b_judge_grid(). The gate it asks for (how
# close an own tie must be before its seen bias is taken off twice) needs 100 samples per design.
# Then shards 53 and 54, never run before (run "2026-12-07e-full", the build of 5a8448b, whose
# intervals are main's; 62 designs, one run before on today's intervals): shard 53, 31 designs,
# 1,354 cells: 96 / 28 / 30 / 1,200 (88.6% flagged); shard 54, 31 designs, 1,354 cells: 11 / 6 /
# 11 / 1,326 (97.9%). No new unflagged cell clearly below 0.85 or above 0.95. Over the 1,425
# designs now on today's intervals: 62,243 cells, 90.4% flagged, 48 of 5,970 unflagged cells
# clearly low (0.8%; 14 expected by chance at coverage 0.90, 57 at 0.875), none clearly high; 43
# shards complete; the well-behaved summary unchanged. Then shards 56 and 58 (same build and run
# name; 62 designs, 59 new to today's intervals): shard 56, 31 designs, 1,354 cells: 13 / 6 / 5 /
# 1,330 (98.2% flagged); shard 58, 31 designs, 1,366 cells: 10 / 6 / 8 / 1,342 (98.2%). No new
# unflagged cell clearly below 0.85 or above 0.95. Over the 1,484 designs: 64,858 cells, 90.8%
# flagged, 48 of 5,995 unflagged cells clearly low (0.8%; 14 by chance at 0.90, 57 at 0.875),
# none clearly high; 45 shards complete; the well-behaved summary unchanged. Never run: 13 shards
# (59, 61, 63, 64, 66, 68, 69, 71, 73, 74, 76, 78, 79).
#
# Session of 2026-12-07, fifth (#44 item 1; a rule changed: fp_rows_per_direction_min 20 -> 25,
# 5a8448b). JUDGED on the whole grid of today's intervals (1,243 designs, runs from
# "2026-12-06h-full"), not on a set of its own: the unflagged cells of groups with 20 to 25 rows
# per direction (bias-corrected, not flagged) covered 0.865 pooled, 14 of 241 clearly below 0.85
# (5.8%), 40% below 0.85 by their estimate: d4k1m*n60_3000 (a group of 60 rows beside 3,000,
# 20 rows per direction; d4k1m3n60_3000gauss 0.81, d4k1m2n60_3000pois 0.84) and d50k1m*n1000
# (20.4; d50k1m3n1000lnorm 0.85, d50k1m5n1000gauss 0.87); at 25-40 rows per direction 1.5%
# clearly low, from 40 on 0.5-0.7%. judge43_grid()'s 12 fresh populations with equal groups
# (run "2026-12-06p-judge43") had covered 0.901 there, 2.2% clearly low: the flag takes the safe
# side. RERUN on a build of 5a8448b (run "2026-12-07e-full", 30 samples): the 28 designs of
# today's intervals with a group at 20 to 25 rows per direction (no other design's flags or
# intervals change; bench/audit-coverage-status.R counts these designs from this run on).
# RESULT: their 1,120 cells 1,107 flagged (98.8%; 879 before), 9 within, 1 below, 3 above; the
# 14 clearly low cells are gone. Over the 1,243 designs: 54,269 cells, 89.8% flagged, 46 of
# 5,538 unflagged cells clearly low (0.8%), none clearly high; well-behaved summary unchanged (no
# well-behaved design has a group below 37 rows per direction). Then shards 46 and 48, never run
# before (same build and run name; a4k1m3n1000gauss had been run alone): shard 46, 31 designs,
# 1,366 cells: 18 / 5 / 9 / 1,334 (97.7% flagged); shard 48, 31 designs, 1,366 cells: 1 / 1 / 0
# / 1,364 (99.9%). One new unflagged cell
# clearly below 0.85 (a20k1m5n3000pois, min-max's max_loss_change 0.64 of 14, 53% of samples
# flagged), none clearly above. Over the 1,304 designs now on today's intervals: 56,958 cells,
# 90.2% flagged, 47 of 5,572 unflagged cells clearly low (0.8%), none clearly high; 39 shards
# complete; the well-behaved summary unchanged. Then shards 49 and 51 (same build and run name;
# 62 designs, 2 of them run before on today's intervals): shard 49, 31 designs, 1,346 cells: 117
# / 47 / 38 / 1,144 (85.0% flagged); shard 51, 31 designs, 1,346 cells: 67 / 18 / 42 / 1,219
# (90.6%). One new unflagged cell clearly below 0.85 (d20k5m2n3000gauss, mean matching's
# var_kept 0.70 of 30), none clearly above. Over the 1,364 designs: 59,571 cells, 90.2% flagged,
# 48 of 5,824 unflagged cells clearly low (0.8%; 13 expected by chance at coverage 0.90, 56 at
# 0.875), none clearly high; 41 shards complete; the well-behaved summary unchanged. Never run:
# 17 shards (53, 54, 56, 58, 59, 61, 63, 64, 66, 68, 69, 71, 73, 74, 76, 78, 79).
#
# Session of 2026-12-07, fourth (#44 item 1; a status measurement, no rule changed; run
# "2026-12-07d-full", 30 samples, on the same build of main 055f0ce, whose intervals are
# today's). RUN: shards 39, 41, 43 and 44, never run before. RESULT (within / below / above /
# flagged): shard 39, 32 designs, 1,401 cells: 74 / 7 / 32 / 1,288 (91.9% flagged); shard 41, 31
# designs, 1,354 cells: 74 / 39 / 34 / 1,207 (89.1%); shard 43, 31 designs, 1,354 cells: 85 / 25 /
# 57 / 1,187 (87.7%); shard 44, 31 designs, 1,354 cells: 8 / 3 / 9 / 1,334 (98.5%). New unflagged
# cells clearly below 0.85: 8, all at 20-40 rows per direction: d12k1m2n300gauss (27 rows per
# direction; min-max's min_loss, losses and max_loss 0.40-0.55, standard's loss and max_loss
# 0.62; 30-50% of samples flagged) and d4k1m2n300pois (mean's loss and max_loss 0.70); none
# clearly above. Over the 1,243 designs now on today's intervals: 54,269 cells, 89.4% flagged,
# 60 of 5,766 unflagged cells clearly low (1.0%), none clearly high; 37 shards complete; the
# well-behaved summary is unchanged. Shards never run: 21 (46, 48, 49, 51, 53, 54, 56, 58, 59,
# 61, 63, 64, 66, 68, 69, 71, 73, 74, 76, 78, 79).
#
# Session of 2026-12-07, third (#44 item 1; a status measurement, no rule changed; run
# "2026-12-07c-full", 30 samples, on a build of main 055f0ce, whose intervals are today's).
# RUN: shards 36 and 38, never run before. RESULT: shard 36, 32 designs, 1,409 cells: 11
# within, 4 below, 6 above, 1,388 flagged (98.5%); shard 38, 32 designs, 1,401 cells: 9 / 1 / 4
# / 1,387 (99.0%). No new unflagged cell clearly below 0.85, none clearly above 0.95. Over the
# 1,120 designs now on today's intervals: 48,876 cells, 89.0% flagged, 52 of 5,354 unflagged
# cells clearly low (1.0%); 33 shards complete; the well-behaved summary is unchanged. Shards
# never run: 25 (39, 41, 43, 44, 46, 48, 49, 51, 53, 54, 56, 58, 59, 61, 63, 64, 66, 68, 69, 71,
# 73, 74, 76, 78, 79).
#
# Session of 2026-12-06, seventh (#44 item 1; a status measurement on main 498e812's intervals,
# no rule changed; run "2026-12-06x-full", 30 samples). bench/audit-coverage-status.R (new)
# summarises the full grid on today's intervals (the status runs from "2026-12-06h-full" on,
# each design at its latest run, a design run twice under one run name counted once: its samples
# are seeded by its name, so the cells are the same). Before this session 664 designs were
# measured so, 36 of them among the 120 well-behaved ones. RUN: the 84 well-behaved designs not
# yet measured (FAIRPROJ_BENCH_DESIGNS as a comma list, split over two processes), and shards 13,
# 14, 16 and 18, never run before (7 of their designs were also in the list: same cells). RESULT:
# all 120 well-behaved designs are now measured on today's intervals. The 48 distinct ones: 2,052
# cells, 2.3% of intervals flagged, 8 of 2,004 unflagged cells clearly below 0.85 (0.4%), pooled
# reliable coverage 0.911; all but one flag at most 10% of their intervals: d4k1m5n1000pois
# flags 14.9% (the heavy-tail detector, on the spread of group b's block covariances, 1.5 times a
# Gaussian's, in 5 of 30 samples: Poisson counts at rates down to 0.3 have excess kurtosis up to
# 3.3, so "light-tailed" is arguable; its reliable intervals cover 0.71-1.00, the loss ratio
# lowest). The 24 tie ones: 1,026 cells, 2.7% flagged, 6 of 998 unflagged cells clearly low
# (0.6%; 4 of them t12k1m3n3000gauss, the near-tie), pooled 0.907, none above 10% flagged
# (largest 8.9%). The 48 alike ones flag 48-100% of their intervals (81.5% of cells; the lead's
# call, as before; the alike Gaussian populations are spherical, so "no direction stands out" is
# the honest answer there). Clearly low unflagged cells in distinct well-behaved designs: mean
# matching's min_loss 0.53, loss of a 0.67 and loss ratio 0.70 at d12k1m5n1000gauss; min-max's
# variance kept 0.63 and price 0.70 at d12k2m2n1000pois, and its max_loss_change 0.60 at
# d12k2m2n1000gauss; standard PCA's error of c 0.71 and loss of b 0.68 at d12k3m3n1000gauss (as
# before). Shard 13: 32 designs, 1,401 cells, 63 within, 15 below, 31 above, 1,292 flagged
# (92.2%); of 109 unflagged cells 1 clearly low (min-max's max_loss_change 0.67 at
# t20k1m2n1000gauss). Shard 14: 1,401 cells, 6 within, 1 below, 11 above, 1,383 flagged (98.7%),
# none of its 18 unflagged cells clearly outside. Shard 16: 1,401 cells, 8 within, 0 below, 9
# above, 1,384 flagged (98.8%); shard 18: 1,389 cells, 3 within, 4 below, 8 above, 1,374 flagged
# (98.9%); none of their 32 unflagged cells clearly outside. Over the 869 designs now on today's
# intervals: 37,931 cells, 87.6% flagged, 47 of 4,696 unflagged cells clearly below 0.85 (1.0%),
# none clearly above 0.95; 25 shards complete. Shards never run: 33 (19, 28, 29, 31, 33, 34, 36,
# 38, 39, 41, 43, 44, 46, 48, 49, 51, 53, 54, 56, 58, 59, 61, 63, 64, 66, 68, 69, 71, 73, 74,
# 76, 78, 79).
#
# Session of 2026-12-06, fifth (#44 item 1; main c5cbf86). A status measurement, no rule changed:
# the band of 20 to 25 rows per direction, n / (k (d - k)) in the smallest group, where the
# intervals are not flagged but centred on the bias-corrected estimate (fp_small_group_rho).
# Seen: in the full-grid shards run since rule Z (runs "2026-12-06d" on), the unflagged cells of
# that band were 90 (36 within, 33 below, 21 above), 6 of them clearly below 0.85 (6.7%; in two
# designs at d = 50, k = 1, 1,000 rows: d50k1m5n1000gauss, mean matching's loss of group d 0.50,
# standard PCA's loss gap 0.67; d50k1m3n1000lnorm), against 2.8-3.0% of the unflagged cells at
# 30-40 and at 100 or more rows per direction. Plan, written before any result: `judge43_grid()`,
# 12 designs drawn fresh (pops 585-596) with 20 to 25 rows per direction in the smallest group
# (d 8-50, k 1-2, 2-5 groups, equal and unequal sizes, Gaussian and Poisson, one tie) and 2
# controls at 30-32 (pops 597-598); 60 samples each, split over shards 0/2 and 1/2. Reported:
# cells within / below / above / flagged, and the unflagged cells clearly below 0.85 or above
# 0.95 (binomial, one-sided p < 0.05). Decision rule, fixed now: if the band's unflagged cells
# here are more than 5% clearly below 0.85, or their pooled reliable coverage is below 0.87, the
# next rule proposed is R25 (fewer than 25 rows per direction flagged, the corrected band
# removed), to be judged on populations not yet drawn; otherwise the band stays as it is.
#   Result (run "2026-12-06p-judge43", main 0224c4a): 14 designs, 580 cells. The band (12
# designs, 20.4-23.2 rows per direction): 494 cells, 457 unflagged (310 within, 69 below, 78
# above), 10 clearly below 0.85 (2.2%), 11 clearly above 0.95; pooled reliable coverage 0.901 (mean
# over cells by method: standard PCA 0.912, min-max 0.889, mean matching 0.902); each design flags 0-34% of its
# intervals (the three designs at d = 50 with 2-5 Gaussian groups 23-34%). By the decision rule
# the band stays as it is: R25 is not proposed. The two controls (30.6 and 31.8 rows per
# direction, outside the band, so centred as elsewhere): 86 cells, 82 unflagged, 12 clearly
# below (14.6%), pooled 0.878; 10 of the 12 are min-max's equalised losses (each group's, the
# largest and the smallest: one quantity) at 0.61 (d50k1m3n1500gaussp597) and 0.72
# (d24k2m3n1400gaussp598), where min-max's losses take off half the replicates' bias
# (fp_minmax_bias_c) and not all of it as in the band. In the full-grid shards since rule Z and
# this run together, min-max's unflagged losses at 30-40 rows per direction were 37 cells, 8
# clearly below (6 of them these controls'), mean coverage 0.840; at 20-25, 32 cells, none,
# 0.878; at 40-60, 46 cells, none, 0.914. A candidate for a later rule (not acted on here): min-max's share of the bias taken off
# rising from 0.5 to 1 as the rows per direction fall towards 25.
#   RULE MB (plan, written before any result of its calibration or judging): min-max's share of
# the replicates' bias taken off its groups' errors and losses (fp_minmax_bias_share()) rises
# linearly from fp_minmax_bias_c = 0.5 at R rows per direction in the smallest group
# (fp_minmax_full_rho) to all of it at 25 (fp_small_group_rho, where every method's groups are
# corrected in full). R = 25 is today's rule. Calibration, on seen designs only: the 17 designs
# of the full-grid shards since rule Z, judge42 and judge43 where min-max has unflagged cells at
# 25-40 rows per direction, 40 samples each drawn afresh on the package with R = 25 (replicates
# saved, run "2026-12-06r-cal"), replayed with R in {30, 35, 40, 45}; chosen: the R with the
# most of min-max's cells within less below and above, provided no design that is well behaved
# loses a cell from within. Judge: `judge44_grid()`, 14 designs drawn fresh (pops 599-612),
# 27-41 rows per direction (d 12-50, k 1-3, 2-5 groups, equal and unequal sizes, Gaussian and
# Poisson, one tie; two well-behaved at d = 12, k = 3), 60 samples each on the package with the
# chosen R (replicates saved), replayed with R = 25. Adopted if, in min-max's cells, passes
# (within, or flagged in >= 80% of samples) rise, fails (below or above) fall, pass -> fail <=
# fail -> pass / 4, and no well-behaved design crosses 10% flagged; otherwise R stays 25.
#   Result of the calibration (run "2026-12-06r-cal", 717 cells; the replay with R = 25 gives the
# run's verdict in every cell): min-max's cells within / below / above / flagged 132 / 45 / 27 /
# 55 at R = 25; 130 / 47 / 27 / 55 at R = 30 and at R = 35; 130 / 47 / 26 / 56 at R = 40; 128 /
# 48 / 27 / 56 at R = 45 (one well-behaved cell leaves within there). No R turns a failing cell
# into a passing one except one cell at R = 40 (flagged instead of above), and each costs 2-4
# cells that passed (d12k1m3n300gauss: min-max's error gap 0.850 -> 0.825). The controls'
# equalised losses rise (d50k1m3n1500gaussp597 0.62 -> 0.72 at R = 35 -> 0.79 at R = 45;
# d24k2m3n1400gaussp598 0.80 -> 0.83 at R = 45) but stay below 0.85: more of the bias the
# replicates see is not what they lack. By the plan R stays 25: rule MB is not adopted, the
# hook was removed, and judge44 (pops 599-612) was not run, so those populations are still
# unseen. At d = 24-50 min-max's intervals remain the rough ones ?fair_audit says they are.
#   Then a status measurement on those unseen populations, no rule changed (plan written before
# any result): `judge44_grid()` as fixed above (pops 599-612), 60 samples each on main, split
# over shards 0/2 and 1/2. Reported: cells within / below / above / flagged, by method, and the
# unflagged cells clearly below 0.85 or above 0.95, apart for d > 12. Decision rule, fixed now:
# if min-max's unflagged cells at d > 12 here are more than 10% clearly below 0.85, a flag for
# min-max at d > 12 below 40 rows per direction (rule MW) is proposed, to be judged on
# populations not yet drawn; otherwise min-max stays as it is there.
#   Result (run "2026-12-06s-judge44", main 43cf5a1's audit): 14 designs, 602 cells, 580
# unflagged (419 within, 90 below, 71 above), 16 clearly below 0.85 (2.8%), 4 clearly above 0.95,
# pooled reliable coverage 0.897; each design flags 0-16% of its intervals (d = 50 at 1,400-1,600
# rows 14-16%, d = 30 at 1,000 rows 11%). By method and width (unflagged cells, clearly below,
# pooled): d > 12 standard PCA 128, 2, 0.901; min-max 130, 8 (6.2%), 0.879; mean matching 146,
# 2, 0.917; d <= 12 standard 56, 0, 0.908; min-max 56, 4 (7.1%), 0.869; mean matching 64, 0,
# 0.900. By the decision rule (6.2% is not more than 10%) rule MW is not proposed. The 12 of
# min-max's cells clearly below are, but for one, its equalised losses (d50k1m3n1400gaussp599,
# 0.69, as in judge43's d = 50 control) and the loss of the group left out of its balanced set
# (the smallest loss: d20k2m4n1000gaussp602 0.57, d12k2m5n700gaussp605 and the well-behaved
# t12k3m4n1100gaussp611 0.75). The three well-behaved designs flag 0-5.2% of their intervals;
# their 123 unflagged cells: 2 clearly below (1.6%), pooled 0.902.
#   RULE MO (plan, written before any result of its calibration or judging). Seen (two of
# judge44's designs rerun with 60 samples, samples and replicates kept outside the repository):
# min-max's loss of a group outside its balanced set covers 0.57 (d20k2m4n1000gaussp602: group
# a, balanced in 20% of samples; truth 1.279, mean estimate 1.504, sd 0.083, the interval above
# the truth in 24 of 60 samples) and 0.75 (t12k3m4n1100gaussp611, the tied group); standard PCA's
# loss of the same group covers 0.92-0.95. Min-max takes half the replicates' bias off every
# group's error and loss (fp_minmax_bias_c, calibrated where its losses are equalised); a group
# outside the balanced set is not held by the fit, and its loss carries its best error's
# optimism as standard PCA's does. Rule MO: such a group's (its sample loss below the largest by
# more than 1e-6 of it) loss takes off the share c_l of the replicates' bias and its error c_e
# (fp_minmax_off_c; today 0.5, 0.5). Calibration, on seen designs only, by replaying saved
# replicates: run "2026-12-06r-cal" (17 designs) and the two designs above; candidates (c_e,
# c_l) in {(0.5, 1), (0, 1), (0.5, 1.5)}; chosen: the one with the most of min-max's cells within
# less below and above, if it beats today's, and no well-behaved cell leaves within. Judge: 12
# designs drawn fresh (pops 613-624; 3-5 groups of distinct or tied groups, d 8-30, 1,000-2,000
# rows, Gaussian and Poisson; 5 well-behaved), 60 samples each on the package with the chosen
# rule (replicates saved), replayed with today's; adopted if in min-max's cells passes rise,
# fails fall, pass -> fail <= fail -> pass / 4, and no well-behaved design crosses 10% flagged.
#   Calibration result (replays on the 19 seen designs, 815 cells; the replay of today's rule
# gives the runs' verdicts in every cell): min-max's cells within / below / above / flagged 150
# / 56 / 30 / 57 today; (0.5, 1) 150 / 56 / 29 / 58; (0, 1) 152 / 54 / 29 / 58; (0.5, 1.5) 150
# / 57 / 28 / 58; no well-behaved cell leaves within. Chosen by the plan: (0, 1) (within less
# below and above 69 against 64 today). The targeted cells move little: d20k2m4n1000gaussp602's
# loss of a 0.571 -> 0.625, t12k3m4n1100gaussp611's 0.750 -> 0.733; the gain is two error gaps
# (0.839 -> 0.857, 0.833 -> 0.850) and t4k1m5n100gauss's loss of a (0.828 -> 0.857), against its
# largest loss (0.875 -> 0.844). The replicates see little of the bias of the left-out group's
# loss: taking all of it off, or 1.5 times, cannot reach it.
#   Judge result (judge45, 12 designs drawn fresh, 60 samples, replicates saved and replayed with
# today's rule): min-max's cells within / below / above / flagged 128 / 37 / 13 / 24 today, 126
# / 39 / 13 / 24 with (0, 1): 2 cells pass -> fail (the well-behaved t12k3m4n1000gaussp615's
# error of its tied group a and largest error, 0.850 -> 0.833), none fail -> pass. Rule MO is not
# adopted: fp_minmax_off_c and the bench hook were removed. Left as found: the loss of a group
# outside min-max's balanced set, with a bias the replicates do not show (not taken further).
#   Judge45 under today's rule (run "2026-12-06t-judge45", the replay): 12 designs, 582 cells,
# 558 unflagged (423 within, 67 below, 68 above), 6 clearly below 0.85 (1.1%), 3 clearly above
# 0.95, pooled reliable coverage 0.902 (standard PCA 0.907, min-max 0.883, mean matching 0.914);
# each design flags 3-10% of its intervals (all 24 flagged cells are min-max's "losses may all
# be equal"). The five well-behaved designs: 239 cells, flags 3.6-7.4% per design, 229 unflagged,
# 2 clearly below (0.9%: min-max's price 0.717 and 0.750), pooled 0.908.
#
# Session of 2026-12-06, fourth (#44 item 1; main 4abdbf2). A status measurement, no rule changed:
# how item 1's well-behaved clause stands on populations never drawn before, with every rule
# adopted so far. Plan, written before any result: `judge42_grid()`, 20 designs drawn fresh (pops
# 565-584), all well-behaved by item 1's wording (Gaussian or Poisson columns, >= 1,000 rows per
# group, d <= 12): 12 with distinct groups, 4 with a tie, 4 alike; 2-5 groups, equal and unequal
# sizes; 60 samples each, split over two processes (shards 0/2, 1/2). Reported: cells within /
# below / above / flagged, each design's share of intervals flagged, and the unflagged cells
# whose coverage is clearly (binomial, one-sided p < 0.05) below 0.85 or above 0.95.
#   Result (run "2026-12-06j-judge42", main 4abdbf2): 20 designs, 852 cells: 545 within, 57 below,
# 91 above, 159 flagged. The 16 designs with distinct or tied groups: 682 cells, 530 within, 57
# below, 76 above, 19 flagged; each design flags 0-5.2% of its intervals (none above 10%); the 663
# unflagged cells cover 0.906 pooled (by quantity 0.897-0.921, by method 0.904-0.908, by design
# 0.865-0.934), 2 clearly below 0.85 (mean matching's max_loss_change 0.733 in d12k3m3n1000gaussp572,
# its loss_ratio 0.750 in d12k2m3n3000_1000_1000gaussp575) and 9 clearly above 0.95, all at 1.00
# (four are min-max's equalised losses at its kink, two prices). With 60 samples a cell whose
# coverage is 0.90 reads below 0.85 (50 or fewer of 60) 7 times in 100 by chance alone (57 of 663
# here, 8.6%). The 4 alike designs flag 57-100% of their intervals:
# the Gaussian ones 100% (their columns are independent, so after scaling every group's
# covariance is the identity and no subspace is defined: "no direction stands out"), the Poisson
# ones 57-66% (losses at 0, mean directions not fixed, equal losses: rules Z, S, M3); their 30
# unflagged cells: 15 within, 15 above, none below.
#   A silent failure found on a seen design, NOT acted on (diagnosis for a later rule):
# t4k1m3n300gauss (full-grid shard 35; rerun with 200 samples on main 4abdbf2, samples kept
# outside the repository): min-max's loss of group a, whose own first two eigenvalues are tied,
# covers 0.38 among its reliable samples, its error 0.73, variance kept 0.72, error gap 0.73,
# largest error 0.73, flagged in 0.5-26% of samples. Its loss is biased up by 1.2 sds (mean 0.343,
# truth 0.190, sd 0.128; standard PCA's loss of a by 0.083, the own near-tie's upward bias of
# its top eigenvalue), which puts a into min-max's balanced set in 42.5% of samples, though in the
# population its loss is 0.28 below the balanced pair's 0.473. In those samples loss, error,
# variance kept and error gap cover 0.11, 0.61, 0.62, 0.58; in the others 0.73, 0.83, 0.79, 0.83.
# The replicates do not show it (a forty-sample probe: the kink detector's largest |bias| / sd
# 0.3-1.4, below fp_kink_z_max = 2; fp_audit_own_tie()'s unseen bias of a's best error 0.016):
# they inherit the sample's balanced set. At 1,000-3,000 rows (judge42's four tie designs) the
# tied group is balanced in the samples as in the population (or, 0.035 below the balanced set,
# in 47% of them) and min-max's unflagged cells cover 0.80-0.97. A flag on "a group with its own
# near-tie is balanced" would also fire where it is truly balanced and the intervals hold
# (t8k2m3n1000gaussp577, t12k3m2n1000gaussp578: 100% of samples, a third of those designs'
# cells), so the candidate is a refit of min-max with each
# group's best rank-k variance lowered by its bias (seen + unseen), flagging where the balanced
# set changes. Tried outside the package only (a dual solver on a 1% grid of weights, the
# bench's population and 60 samples, columns scaled by the sample's sds, 100 replicates per
# group): a is balanced in 23 samples; lowering each group's best by its bootstrap bias (a's:
# 0.044 on average, about half of standard PCA's 0.083) unbalances a in 7 of the 23, by twice it
# in 14, and never in the 37 where a is not balanced. So such a flag would catch a third to
# two thirds of the failing samples, and the cell would stay below 80% flagged: the spurious
# balance is mostly noise on top of the bias. Not built.
#
# Session of 2026-12-06, third (#44 item 1; main 3fed8db). Where every group's error is equal
# (alike designs), the error gap and the largest error covered 0.72-0.83 at three to five groups.
# Diagnosis on the seen judge39 replays (standard PCA's error gap, truth 0): the bootstrap's sd of
# the pairs' differences is 0.91-0.95 of their true spread, but the misses came at a largest
# |difference| / sd as low as 1.8 at three groups: the candidates for the largest and smallest
# were screened at the interval's own level, so at a tie the screening often kept the one pair
# the data picked (largest, smallest), whose one-sided end (0.96) was then read as if nothing had
# been selected. And the largest error's own interval covered 0.92-0.94 there, but the
# consistency rule (item 2: no lower than any group's interval) raised its lower end to the
# largest of the groups' own lower ends in 99-100% of those samples, and m one-sided misses add up
# (0.90 at three groups, 0.82-0.83 at four, 0.72-0.78 at five); in structured designs it raised it
# in 17% of samples at no cost (0.939 -> 0.935).
#   RULE G3 (plan written before any result of judge40): the candidates of the end that faces a
# tie (the largest's lower end, the smallest's upper end, the gap's lower end, losses and errors)
# screened at 1 - (1 - level) / 10 (Romano, Shaikh and Wolf's two-step choice, beta = alpha / 10)
# instead of at the level; no constant tuned. CAL (seen judge39): error gap of alike designs
# 0.808 -> 0.854. JUDGE J40 (judge40_grid(), 16 designs drawn fresh, pops 533-548, 60 samples;
# run "2026-12-06f" on main, replayed as "2026-12-06f-g3"): within / below / above / flagged
# 375 / 45 / 62 / 296 -> 382 / 39 / 61 / 296 of 778 cells, 7 fail -> pass (error gaps of alike
# designs 0.73-0.83 -> 0.86-0.93), none pass -> fail. B (seen replays: full shards 10-40, judge36,
# judge37): 4 fail -> pass, 4 pass -> fail, every one of them a loss gap pushed from 0.93-0.95 to
# 0.96-1.00. Together 11 / 4 > a quarter: NOT ADOPTED.
#   RULE G3e (plan written after G3's result, before any result of judge41): G3's screening for
# the groups' error gap alone (the loss gap's one-sided construction was calibrated, RULE G, on
# structured designs' loss gaps and sits at 0.93-0.95 there; the error gap's never was). JUDGE J41
# (judge41_grid(), 16 designs drawn fresh, pops 549-564, 60 samples; run "2026-12-06g" on main,
# replayed as "2026-12-06g-g3e"): 408 / 36 / 73 / 279 -> 410 / 34 / 73 / 279 of 796 cells, passes
# 687 -> 689, fails 109 -> 107, 2 fail -> pass (a10k2m4n1000poisp551's error gaps 0.72-0.74 ->
# 0.88), none pass -> fail; the alike designs' error gaps pooled 0.799 -> 0.851 (7 of 13 cells
# still below: the bootstrap's spread of the differences is 5-10% short under Poisson columns,
# and at five groups 100 replicates cannot resolve the simultaneous quantile). B (seen: judge40,
# judge39, full shards 10-40, judge36, judge37): 18 fail -> pass, 1 pass -> fail (a structured
# error gap 0.950 -> 0.967); no flagged share moved anywhere. ADOPTED.
#   RULE M3 (plan written before any result of judge41, baseline G3e): the largest error's interval
# is flagged (that term only) where the error gap's interval starts at 0 and the m groups'
# one-sided misses can add to more than the level allows, 1 - (1 - (1 - level) / 2)^m > 1 - level
# (m >= 3 at 0.9; no constant tuned). JUDGE J41 (replayed as "2026-12-06g-g3e-m3"): passes 689 ->
# 691, fails 107 -> 105, 2 fail -> pass (alike designs' largest errors below 0.85 now flagged), none
# pass -> fail (10 cells within -> flagged). B (seen: judge39, judge40, full shards 10-40): 17 fail
# -> pass, none pass -> fail. Flagged shares moved only in alike designs (their largest error; the
# designs 0.52-0.79 -> 0.56-0.81 of their intervals flagged; none was at 10% or less). ADOPTED.
# Where the groups' errors are equal the largest error is then flagged in most samples, and the
# alike Poisson designs (well-behaved by item 1's wording) flag 56-81% of their intervals.
#   Shard 25/80 of the full grid, never run before, on main 5781210 (with G3e and M3; run
# "2026-12-06h-full", 30 samples): 32 designs, 1,401 cells: 66 within, 30 below, 49 above, 1,256
# flagged in >= 80% of their samples (89.7%; too few rows for the directions 874, heavy tails 237,
# group means not fixed 145). Of the 145 unflagged cells 4 cover clearly less than 0.85 (binomial,
# one-sided p < 0.05; t4k1m5n100gauss 3, t20k2m2n1000gauss 1) and none clearly more than 0.95. Its
# one well-behaved design (d12k3m2n3000pois) flags none of its 35 cells: 21 within, 2 below (mean
# matching's loss of group b and largest loss, 0.833), 12 above.
#   Shard 35/80 of the full grid, never run before, on main b49fb25 (same intervals code as 5781210;
# run "2026-12-06i-full", 30 samples): 32 designs, 1,409 cells: 93 within, 44 below, 32 above, 1,240
# flagged in >= 80% of their samples (88.0%; too few rows for the directions 921, heavy tails 191,
# group means not fixed 122, losses may all be equal 6). Of the 169 unflagged cells 3 cover clearly
# less than 0.85 (all t4k1m3n300gauss, min-max) and none clearly more than 0.95. No well-behaved
# design in this shard.
#   Shard 45/80 of the full grid, never run before, on main 4abdbf2 (same intervals code as 5781210;
# run "2026-12-06k-full", 30 samples): 31 designs, 1,366 cells: 138 within, 47 below, 41 above,
# 1,140 flagged in >= 80% of their samples (83.5%; too few rows for the directions 870, heavy
# tails 135, group means not fixed 128, losses may all be equal 6, 0 not ruled out 1). Of the
# 226 unflagged cells none covers clearly less than 0.85 and none clearly more than 0.95. Its one
# well-behaved design (t4k1m2n1000gauss) flags none of its 35 cells: 30 within, 5 below (0.833).
#   Shard 50/80 of the full grid, never run before, on main 4abdbf2 (run "2026-12-06l-full", 30
# samples): 31 designs, 1,346 cells: 13 within, 4 below, 15 above, 1,314 flagged in >= 80% of
# their samples (97.6%; too few rows for the directions 737, heavy tails 296, group means not
# fixed 197, no direction stands out 58, 0 not ruled out 22, errors / losses not told apart 4;
# 29 designs flagged in 99-100% of their cells, the two alike Poisson designs with 300 and 3,000
# rows in 56-59%). Of the 32 unflagged cells none covers clearly less than 0.85 or clearly more
# than 0.95. No well-behaved design.
#   Shard 55/80 of the full grid, never run before, on main 4abdbf2 (run "2026-12-06m-full", 30
# samples): 31 designs, 1,354 cells: 86 within, 23 below, 41 above, 1,204 flagged in >= 80% of
# their samples (88.9%; too few rows for the directions 744, heavy tails 312, group means not
# fixed 126, a fair fit at a kink 19, losses may all be equal 2, 0 not ruled out 1). Of the 150
# unflagged cells 3 cover clearly less than 0.85 (d50k1m5n1000gauss: mean matching 2, standard
# PCA 1; the design flags 35% of its intervals) and none clearly more than 0.95. Its two
# well-behaved designs flag 0 and 2.1% of their intervals: d12k1m2n1000gauss 20 within, 4 below,
# 11 above; d4k1m2n1000pois 18 within, 7 below, 10 above.
#   Shard 60/80 of the full grid, never run before, on main 4abdbf2 (run "2026-12-06n-full", 30
# samples): 31 designs, 1,366 cells: 25 within, 26 below, 19 above, 1,296 flagged in >= 80% of
# their samples (94.9%; too few rows for the directions 678, heavy tails 346, group means not
# fixed 209, no direction stands out 36, 0 not ruled out 21, losses / errors not told apart 6).
# Of the 70 unflagged cells 3 cover clearly less than 0.85 (d50k1m3n1000lnorm: min-max 2,
# standard PCA 1; the design flags 37% of its intervals) and none clearly more than 0.95. Its two
# well-behaved designs are alike: a12k1m3n1000gauss flags 100% (independent columns, scaled: no
# direction), a4k1m3n1000pois 65% (6 within, 3 below, 5 above, 29 flagged).
#   Shard 65/80 of the full grid, never run before, on main 4abdbf2 (run "2026-12-06o-full", 30
# samples): 31 designs, 1,354 cells: 112 within, 17 below, 43 above, 1,182 flagged in >= 80% of
# their samples (87.3%; too few rows for the directions 779, heavy tails 223, group means not
# fixed 137, a fair fit at a kink or near-tie 19, near-tie of eigenvalues k and k+1 17, losses
# may all be equal 6, 0 not ruled out 1). Of the 172 unflagged cells none covers clearly less
# than 0.85 or clearly more than 0.95. Its two well-behaved designs: d4k1m5n3000gauss flags 5.6%
# of its intervals (24 within, 4 below, 6 above, 2 flagged), t12k1m5n1000gauss 2.8% (34 within,
# 7 below, 14 above, 0 flagged).
#   Shard 70/80 of the full grid, never run before, on main 43cf5a1 (run "2026-12-06q-full", 30
# samples): 31 designs, 1,366 cells: 29 within, 11 below, 17 above, 1,309 flagged in >= 80% of
# their samples (95.8%; too few rows for the directions 739, heavy tails 259, group means not
# fixed 218, no direction stands out 58, a fair fit at a kink 19, 0 not ruled out 16). Of the 57
# unflagged cells none covers clearly less than 0.85 or clearly more than 0.95. Its two
# well-behaved designs are alike: a12k1m2n3000gauss flags 100% (no direction), a4k1m2n3000pois
# 55% (9 within, 0 below, 5 above, 21 flagged).
#   Shard 75/80 of the full grid, never run before, on main 43cf5a1 (run "2026-12-06u-full", 30
# samples): 31 designs, 1,346 cells: 104 within, 55 below, 32 above, 1,155 flagged in >= 80% of
# their samples (85.8%; too few rows for the directions 752, heavy tails 251, group means not
# fixed 141, 0 not ruled out 5, losses may all be equal 4, pooled near-tie 2). Of the 191
# unflagged cells 10 cover clearly less than 0.85 and none clearly more than 0.95: 6 in
# d4k1m3n60_3000gauss (two groups of 60 rows beside one of 3,000; min-max's losses, error and
# price 0.65-0.70, mean matching's loss of a 0.64; the design flags 36% of its intervals) and 4
# in the well-behaved tie design t12k1m3n3000gauss (standard PCA's largest loss 0.62 and loss gap
# 0.69, the fair methods' max_loss_change 0.67: standard PCA at a pooled near-tie at k = 1, the
# pooled near-tie flag firing in 13-23% of samples only; the design flags 8.9% of its
# intervals). A silent failure in a well-behaved design, not acted on here. The other two
# well-behaved designs: d12k1m5n1000pois flags 2.5% (37 within, 5 below, 13 above),
# d12k2m5n1000gauss 3.6% (35 within, 8 below, 10 above, 2 flagged).
#   Shard 80/80 of the full grid, never run before, on main 43cf5a1 (run "2026-12-06v-full", 30
# samples): 31 designs, 1,354 cells: 14 within, 3 below, 9 above, 1,328 flagged in >= 80% of
# their samples (98.1%; too few rows for the directions 715, heavy tails 355, group means not
# fixed 184, no direction stands out 58, 0 not ruled out 14, a fair fit at a kink 2). Of the 26
# unflagged cells none covers clearly less than 0.85 or clearly more than 0.95. Its two
# well-behaved designs are alike: a12k3m2n1000gauss flags 100% (no direction), a12k2m2n1000pois
# 59% (8 within, 0 below, 6 above, 21 flagged). With it the 32 shards numbered 0 or 2 modulo 5
# (2, 5, 7, 10, ..., 77, 80) have been run (17 and 57 without their last few designs); the other
# 48 have not.
#
# Session of 2026-12-06, second (#44 item 1; main fd9dc3c, with rule S). Four more shards of the
# full grid, never run before: 10, 20, 30 and 40 (run "2026-12-06d-full", 30 samples, replicates
# saved; a replay on main equals the run in every cell). 128 designs, 5,569 cells: 42 within, 20
# below, 66 above, 5,441 flagged in >= 80% of their samples (97.7%; too few rows for the
# directions 3,343 cells, heavy tails 1,079, group means not fixed 853, no direction stands out
# 158, losses that may all be equal 8). Of the 128 unflagged cells 5 cover clearly less than 0.85
# (binomial, one-sided p < 0.05) and none clearly more than 0.95; the 5 sit in two alike Poisson
# designs (a12k3m5n1000pois: min-max's max_error 0.55, error_gap 0.64 of 22 reliable samples;
# a20k2m3n1000pois: standard PCA's error_gap 0.70), where every group's errors are equal and
# the largest and the gap sit at a kink. The four well-behaved designs here are all alike (40-100%
# of their intervals flagged). The 66 above were mostly losses whose truth is 0 (alike designs).
#   RULE Z (plan written before any result of these shards, from the item-1 rows already here:
# of the full-grid cells whose truth is 0 and whose intervals are mostly unflagged, 186 covered
# above 0.95, 24 below, 41 within; the losses at truth 0 covered 0.97-1.00 pooled, because their
# intervals start at 0 wherever the estimate is within the noise floor of a zero loss, while in
# well-behaved designs the losses with a positive truth started at 0 in no sample in 16,731 of
# 17,167 cells): an interval of a loss, largest loss or smallest loss that starts at 0 is flagged,
# that term only ("0 is not ruled out ...: read it as an upper bound"; the precedent is min-max's
# gap at its bound), no tuned constant. JUDGE F: shards 10, 20, 30, 40 (drawn on main, replayed
# with Z, run "2026-12-06d-full-z"); JUDGE B: judge36 + judge37 (seen, replayed). ADOPT iff on F
# item 1's passes (within or flagged) rise and its fails (below or above) fall, no well-behaved
# design of F or B goes from at most 10% of its intervals flagged to more, and the cells turning
# pass -> fail are at most a quarter of those turning fail -> pass. F: within / below / above /
# flagged 42 / 20 / 66 / 5,441 -> 35 / 20 / 22 / 5,492, passes 5,483 -> 5,527, fails 86 -> 42, 44
# cells fail -> pass and none pass -> fail (67 cells changed, all in alike designs but one); the
# alike Poisson designs' flagged share 40-46% -> 64-68%. B: judge36 identical in every cell;
# judge37 4 cells' flagged share 0-0.07 -> 0.06-0.10 (one design, 2.2% -> 2.7% of its intervals),
# no verdict moved (replays not appended: equal to runs "2026-12-05s-m2s" but for those 4).
# ADOPTED.
#
#   RULE G2 (plan written before any result of it, after rule Z's judging): where every group's
# error is equal (alike designs, truth 0), the error gap's unflagged cells covered 0.94-0.96 with
# 2 groups, 0.80-0.83 with 3 and 0.67-0.82 with 5 (pooled over the full-grid runs): the gap's
# lower end, the largest of the candidate pairs' lower bounds holding simultaneously, misses 0.
# G2 calibrates that simultaneous level over every ordered pair of groups instead of the
# candidate pairs alone (chosen by the data as the estimated largest and smallest); no tuned
# constant. CAL on the seen shards 10-40 (replays): error gap at truth 0 with 3-5 groups 0.778 ->
# 0.836 (8 cells), so judged. JUDGE J39 (judge39_grid(), 16 designs drawn fresh, pops 517-532, 60
# samples; run "2026-12-06e" on main afa1b53, replayed with G2 as "2026-12-06e-g2"; ADOPT iff
# passes rise, fails fall and pass -> fail is at most a quarter of fail -> pass): within / below /
# above / flagged 369 / 38 / 94 / 271 -> 370 / 31 / 100 / 271 of 772 cells; 7 cells fail -> pass
# (error gaps at truth 0 in alike Poisson designs, 0.78-0.83 -> 0.85-0.87) and 6 pass -> fail
# (loss and error gaps of structured designs, 0.90-0.95 -> 0.97-1.00): NOT ADOPTED. Pooled, the
# error gap at truth 0 went 0.808 -> 0.854 and the positive gaps 0.925-0.932 -> 0.936-0.939: the
# positive gaps are already on the conservative side, and the all-equal case needs a fix that
# acts there alone. The package on judge39 (fresh): 3 of 501 unflagged cells clearly below 0.85
# (error gaps and largest errors of alike Poisson designs), 14 clearly above 0.95 (11 of them
# loss gaps, loss ratios and prices whose truth is 0 or 1 in alike designs, covering 1.00; rule
# Z's reasoning would apply to them, but gaps and prices of structured designs start at 0 in a
# share of samples too, unlike losses); the eight structured designs flag 0-6% of their
# intervals, the six alike ones 63-75%.
#
# Session of 2026-12-06 (#44 item 1; main 7ceeba0). Six more shards of the full grid, never run
# before, 30 samples per design: 42, 52, 62 and 72 (run "2026-12-06a-full") and 5 and 15 (run
# "2026-12-06b-full", replicates saved). They ran on an installed package one commit behind
# main, without rule M2s (the session's library had not been reinstalled: c0c03b5's intervals);
# replayed on main's code (with M2s, and with rule S below), shards 5 and 15 are the same in
# every cell, and M2s moves only standard PCA's largest and smallest where several groups may
# hold them (on judge38, below, 13 of 639 cells differ between the two). 188 designs, 8,202 cells:
#  * 282 within, 108 below, 193 above, 7,619 flagged in >= 80% of their samples (92.9%); the
#    flags' reasons: too few rows for the directions estimated 4,762 cells, heavy tails 1,588,
#    group means the data do not fix 1,101, standard PCA's pooled near-tie or its optimism 80, a
#    fair fit at a kink 66, losses that may all be equal 22.
#  * At 30 samples a cell covering 0.90 falls outside 0.85-0.95 by chance in 36% of cases, so the
#    verdicts are read through a binomial test: of the 583 unflagged cells 16 cover clearly less
#    than 0.85 (one-sided p < 0.05; about 5 expected by chance at 0.90) and none clearly more than
#    0.95. The 16 sit in 8 designs, 4 of them alike Gaussian ones (groups from one population
#    whose columns are independent, so that `scale. = TRUE` makes them isotropic:
#    a4k1m5n1000gauss 4, a4k1m2n60_3000gauss 2, a4k1m3n3000gauss 1, a12k1m2n300gauss 1; their
#    variance kept 0.44-0.67, errors 0.55-0.83, flagged in 3-70% of the samples), 2 alike Poisson
#    (a12k1m5n300pois, a20k5m2n3000pois: one cell each), d4k1m2n100gauss (min-max, 4) and
#    t50k1m3n1000lnorm (mean matching, 2, flagged for heavy tails in half the samples).
#  * Well-behaved designs: 9. The five with structure (d12k1m3n3000pois, d12k2m3n3000gauss,
#    d12k3m3n1000pois, t12k3m2n3000gauss, t12k3m3n1000gauss) flag 0-5% of their intervals,
#    mean reliable coverage 0.88-0.92; the four alike ones 40-98% (a12k2m3n1000gauss every cell,
#    a4k1m5n1000gauss 48% with 10 cells below).
#   RULE S (plan written before any result of it, from the shards 42 and 52 above; one amendment
# before any result): where every group's covariance, in the units the fits see, is spherical
# within noise (John's test, U = d tr(S^2) / tr(S)^2 - 1, (n_g - 1) d U / 2 against chi-squared
# with d (d + 1) / 2 - 1 df) and the group means are equal within noise (their spread against
# the within-group variance, chi-squared with d (m - 1) df), every p-value above 0.01 (a
# conventional level, not tuned: no calibration), every method's intervals at every k are
# flagged ("no direction stands out"). The amendment: the means were first to be read by the
# audit's loose-means overlap, which is 1 whenever m - 1 >= d (five groups at d = 4) and cannot
# see equal means there. JUDGE B: judge36 + judge37 (seen, structured; replicates replayed)
# must not move: every cell identical (coverage, flagged share, verdict). JUDGE A: shards 5 and
# 15 above (drawn on the package, replayed with S; ADOPT iff item 1's passes, within or flagged,
# rise and its fails, below or above, fall): identical in every cell (their alike designs are t5
# or log-normal, already flagged for heavy tails): NOT ADOPTED as written (S1). PLAN S2, written
# after S1's null result and before any result of S2: the same rule and code, judged on
# judge38_grid(), 16 designs drawn fresh (pops 501-516) in and beside the rule's domain (10 alike
# Gaussian designs at 300-2,000 rows, 2 alike Poisson, a distinct and a tie design); ADOPT iff
# passes rise, fails fall, the four non-spherical designs do not move and judge B holds. Drawn
# on the package (run "2026-12-06c" is the package's replay of those replicates on main's code;
# the draws themselves ran on c0c03b5's, see above) and replayed with S (run "2026-12-06c-s"):
# within / below / above / flagged 123 / 55 / 104 / 357 -> 87 / 5 / 38 / 509 of 639 cells,
# passes 480 -> 596, fails 159 -> 43, the four non-spherical designs identical in every cell:
# ADOPTED. The alike Gaussian designs now have 98-100% of their intervals flagged (before: 51-87%
# in the nine with cells below 0.85, 3-11 each, and 98-100% in three); above item 1's one in ten
# for well-behaved data, where a projection has nothing to keep; the structured designs are
# untouched.
#
# Session of 2026-12-05, sixth (#44 item 1; main 6c21c13; each rule, its candidates, calibration,
# judging set and adoption rule written down before any result of it).
#   RULE M2s: rule M (below) for standard PCA only: its largest loss's and largest error's upper
# end and its smallest loss's lower end from the replicates' own largest (smallest) over the
# candidates, shifted onto the estimate; the fair methods keep the largest of the candidates'
# own ends. Calibration: rule M's replays on judge32-33 (seen), where standard PCA's cells went
# 10 above -> within and none within -> below, and mean matching's 4 within -> below sank M2sm
# (M2s's effect there is M2sm's on standard PCA: 1,501 / 113 / 122 / 58 -> 1,511 / 113 / 112 /
# 58). JUDGE on judge34 + judge35 (40 designs drawn fresh, pops 421-460; run "2026-12-05r" on the
# package, replayed at M2s as run "2026-12-05r-m2s"; ADOPT iff below + above falls, below rises
# by at most 2 and the flags do not change): 1,503 / 76 / 137 / 60 -> 1,510 / 77 / 129 / 60 of
# 1,776 cells, below + above 213 -> 206, below + 1: ADOPTED (standard PCA's max_loss 4,
# min_loss 2 and max_error 2 cells above -> within, one max_error within -> below). The package
# before it on judge34-35: 84.6% within, 4.3% below, 7.7% above, 3.4% flagged (mean reliable
# coverage 0.909; at most 5.3% of a design's intervals flagged); standard PCA 483 / 12 / 49,
# min-max 487 / 32 / 29 / 60, mean matching 533 / 32 / 59.
#   RULE L (written before any result of M2s's judging): standard PCA's intervals read their
# replicates at a level widened by kappa_s instead of the package's 1.064 (calibrated on all
# methods together; on runs "2026-12-05p-g" and "-q" standard PCA's smooth quantities covered
# 0.91-0.92 on average, 8-17% of its cells above 0.95), candidates {1.064, 1.032, 1}, base the
# package with M2s. CAL on judge34-35 (seen once M2s was judged; replicates replayed), standard
# PCA's cells within / below / above / flagged (score): 1.064 490 / 13 / 41 / 0 (436), 1.032
# 486 / 29 / 29 / 0 (428), 1 460 / 62 / 22 / 0 (376) -> kappa_s* = 1.064, the package's: NOT
# ADOPTED, nothing to judge (narrower intervals turn more cells within -> below than above ->
# within: at M2s 41 of standard PCA's cells sit above 0.95, 33 of them at most 0.97, and 45 just
# within at 0.85-0.87; runs "2026-12-05r-l1.032" and "-l1", standard PCA's rows only).
#   judge36 + judge37 (40 designs, pops 461-500, drawn for L's judging before any result of L;
# with L out, they measure the package afresh): run "2026-12-05s" on the package before M2s,
# replayed on the package with M2s as run "2026-12-05s-m2s": 1,486 / 66 / 136 / 52 -> 1,493 /
# 67 / 128 / 52 of 1,740 cells (standard PCA's max_loss 5, min_loss 2 and loss_gap 1 cells above
# -> within, one min_loss within -> below), M2s's gain seen a second time. The package there:
# 85.8% within, 3.9% below, 7.4% above, 3.0% flagged, mean reliable coverage 0.909, at most 7.1%
# of a design's intervals flagged. What stays below on judge34-35 is spread thin (77 cells over
# 23 designs; the most, 18, in d6k1m2n1000gaussp432, where every method's group a error and loss
# cover 0.78-0.84: standard PCA's error there sits 0.37 of its sd below the truth and its
# interval is 0.89 of the right width, an in-sample optimism the bootstrap only partly sees, at
# k = 1, 1,000 rows per group for 5 directions, no flag).
#
# Session of 2026-12-05, fifth (#44 item 1; main d5f53ab; each rule, its candidates, calibration,
# judging set and adoption rule written down before any result of it, one amendment before any
# judge result).
#   Reading of the 140 fresh designs judge21-29 of the CSV: the loss gap covered 0.929 (standard
# PCA) and 0.936 (mean matching) on average, 46 and 54 of its 140 cells above 0.95, the largest
# source of cells above; by groups 0.906 at m = 2, 0.93-0.95 at m = 3-5. On the saved samples of
# judge25-29 its intervals were 4.3 of the estimate's sds wide at m > 2 (3.7 at m = 2) and the truth
# lay above them in 2% of samples (4% below). fp_gap_interval() took both ends of the spread from
# the candidate pairs' differences holding simultaneously two-sided at the level; the spread
# needs the simultaneous statement only for its lower end (it is at least every pair's
# difference) and only the true pair's upper end for its upper end.
#   RULE G, candidates: off (the package); G1 = lower ends simultaneous one-sided at
# (1 + level) / 2 (the union bound), upper end the largest of the pairs' own upper ends; G1h = G1
# with the lower ends one-sided at the level (no bound: a calibrated choice); G2 (amendment,
# after a partial look at the calibration and the saved samples, before any judge result) = G1's
# lower end, upper end from the replicates' own spread over the candidate pairs, shifted onto the
# estimate. One pair: unchanged. CAL on the 120 seen designs with saved replicates (judge22,
# judge25-29), all cells of all methods, score within less below, above and flagged (ties to
# the more conservative): off 4,253 / 236 / 477 / 154 (3,386), G1 4,274 / 239 / 453 / 154
# (3,428), G2 4,296 / 242 / 428 / 154 (3,472), G1h 4,300 / 245 / 421 / 154 (3,480) -> G1h.
# JUDGE on judge30 + judge31 (40 designs drawn fresh, pops 341-380, composition like judge28-29;
# run "2026-12-05p" on the package, replayed at G1h as run "2026-12-05p-g"): 1,453 / 78 / 161 /
# 56 -> 1,473 / 79 / 140 / 56 of 1,748 cells, below + above 239 -> 219 (the rule asked a fall of
# 2 with below up by at most 2 and the flags unchanged; flagged share of the intervals 3.59%
# both): ADOPTED. 21 gap cells above -> within (every method), one within -> below (standard
# PCA's error gap). The gaps' cells at m > 2 0.935 -> 0.922 on average (loss gap of standard PCA
# and mean matching 0.938-0.955 -> 0.920-0.930), at m = 2 0.899 both. The package on judge30-31:
# 84.3% within, 4.5% below, 8.0% above, 3.2% flagged, mean reliable coverage 0.907; flagged
# share of the intervals at most 7.9% in a design. Rules W4 and W5 (not adopted) read the union
# intervals at 0.88 and the gaps at 0.80 and traded cells above for cells below; G1h narrows the
# gaps only, keeping the level and changing which statement each end rests on.
#   RULE M (written after G's adoption, before any result of it): the largest's upper end (the
# smallest's lower end) from the replicates' own largest over the candidates, shifted onto the
# estimate, instead of the largest of the candidates' upper ends (on the saved samples at m > 2
# standard PCA's and mean matching's largest and smallest loss covered 0.92, the truth beyond
# that end in 3% of samples). Candidates off, M2 (max_loss, min_loss, max_error of every method),
# M2sm (standard PCA and mean matching only). CAL on judge28-31 (80 seen designs, replayed):
# off 2,957 / 142 / 275 / 110 (2,430), M2 and M2sm both 2,973 / 148 / 253 / 110 (2,462) -> tie
# -> M2sm. JUDGE on judge32 + judge33 (40 drawn fresh, pops 381-420; run "2026-12-05q" on the
# package with G, replayed at M2sm as run "2026-12-05q-m"): 1,501 / 113 / 122 / 58 -> 1,512 /
# 117 / 107 / 58 of 1,794; below + above 235 -> 224, but below rose by 4 (the rule allowed 2):
# NOT ADOPTED (15 cells above -> within, 4 within -> below, all mean matching's largest and
# smallest loss). The package on judge32-33: 83.7% within, 6.3% below, 6.8% above, 3.2%
# flagged, mean reliable coverage 0.901, at most 5.9% of a design's intervals flagged; its
# cells below mostly group losses and errors (mean matching 29, min-max 21), 12 of them in
# t12k3m3n1000gaussp418 and 11 in d12k1m5n1000gaussp385.
#
# Session of 2026-12-05, fourth (#44 item 1; main 47da624; each rule, its judging set and its
# adoption rule written down before any result of it).
#   RULE W6, mean matching's own near-tie by partial identification: where the matrix it
# diagonalises (H, the scaled pooled covariance off the group means' differences) has
# eigenvalues k and k + 1 within noise, widen each group's error and loss interval by the
# range of that group's error over the unit vectors of the sample's plane of H's eigenvectors
# k and k + 1 (kept beside the top k - 1; exact from three evaluations, checked against brute
# force on the moment and row routes), weight 1 at z <= t, 0 at z >= t + 1, linear between,
# z = H's gap at k (over tr C) less its replicates' bias, over their sd (the replicates' gap a
# new field of the draws). The package's consistency rules carry the widening into mean
# matching's largest and smallest (an amendment written after the calibration replays were
# seen, before any judging result: the score reads all of mean matching's cells). Candidates t
# in {off, 1, 2, 3}. CAL on judge22 (20 seen designs, drawn afresh with the gap in the
# replicates: the package's verdicts unchanged), mean matching's 294 cells within / below /
# above, within less the rest: off 243 / 20 / 31 (192), 1 245 / 12 / 37 (196), 2 230 / 7 / 57
# (166), 3 214 / 7 / 73 (134) -> 1. JUDGED on judge25_grid() (20 designs drawn fresh, pops
# 241-260, on the package: run "2026-12-05m", 708 / 39 / 63 / 26 of 836), replayed at t = 1
# (run "2026-12-05m-w6", mean matching's rows): 252 / 10 / 34 -> 251 / 9 / 36, below + above 44
# -> 45 (the rule asked a fall of 2), mean |coverage - 0.9| 0.0323 -> 0.0329: NOT ADOPTED. Three
# cells moved (d12k2m3n1000gaussp241's loss of a, below 0.77 -> 0.86; two within -> above): in
# fresh designs the population's H is rarely tied, and where the sample says it may be, the
# widening mostly lands on cells that already covered. Code reverted; no switch left.
#   RULE W6b (written after W6's judge, and after reading the 100 fresh designs judge21-25
# against the population's H gap at k: mean matching's below cells 38 of 67 in the 10 designs
# whose gap is within 1.5 Gaussian noise sds, 26% of their cells, against 29 of 1,368 in the
# other 90; judge25 held none of the 10, so W6's judge could show only its cost). A second look
# at the same construction on a larger judge, said so here: CAL on judge22 + judge25 (40 seen),
# mean matching's 590 cells: off 495 / 30 / 65 (400), 1 496 / 21 / 73 (402), 2 463 / 16 / 111
# (336), 3 438 / 15 / 137 (286) -> 1. JUDGED on judge26_grid() + judge27_grid() (40 drawn fresh,
# pops 261-300, on the package: run "2026-12-05n", 1,405 / 93 / 172 / 52 of 1,722), replayed at
# t = 1 (run "2026-12-05n-w6b", mean matching's rows): 511 / 34 / 63 -> 507 / 24 / 77, below +
# above 97 -> 101 (the rule asked a fall of 2; mean |coverage - 0.9| 0.0338 -> 0.0329): NOT
# ADOPTED. 24 cells moved: 13 below -> within (d12k1m5n2000gaussp276, H gap 0.68 sds, 6 of them;
# d10k2m5n1000gaussp280 3) and 11 within -> above (0.87-0.95 -> 0.96-0.98, in designs whose H gap
# is 1.3-4 sds). The construction finds the tied designs' misses; its weight, read from one
# sample's gap and its replicates, also fires where the population's gap is 2-4 sds, and there
# the widening (the whole range over the plane) is more than the miss it guards against. By the
# population's H gap (the 80 designs of judge22 and judge25-27, mean matching's group errors and
# losses, samples): within 1.5 sds (6 designs) the widening fired in 68% of the samples and
# lifted coverage 0.831 -> 0.918; at 1.5-2.5 sds (13) in 40%, 0.906 -> 0.930; at 2.5-4 (14) in
# 11%, 0.913 -> 0.917; beyond 4 (47) in 2%, unchanged; widened intervals 1.3-1.5 times as wide.
# Left: a widening scaled to what the tie can move (half the plane's range might bring the
# tied designs near 0.88 and leave the 1.5-2.5 band near 0.92: a guess, not measured), or a
# weight that separates a gap of 1 sd from one of 2 (one sample's gap and its replicates'
# spread do not).
#   RULE W6c (written after W6b's reading above): the same widening times f, t = 1, f in {off,
# 0.25, 0.5, 0.75, 1}. CAL on judge26 + judge27 (40, then seen; replays), mean matching's 608
# cells: off 511 / 34 / 63 (414), 0.25 509 / 30 / 69 (410), 0.5 511 / 25 / 72 (414), 0.75 509 /
# 24 / 75 (410), 1 507 / 24 / 77 (406): off and 0.5 tie, ties to the smaller: f = off, NOT
# ADOPTED at calibration, nothing judged. Even a quarter of the range turned cells at 0.93-0.95
# into cells above; the cells below it lifts are fewer than the cells near 0.95 it pushes over.
# judge28_grid() + judge29_grid() (40 designs drawn fresh, pops 301-340, for its judge) are kept
# as 40 more fresh designs on the package (run "2026-12-05o": 1,468 within, 61 below, 153
# above, 54 flagged of 1,736; 3.4% of the intervals flagged, at most 5.3% in a design).
#   judge25 on the package: 84.7% within, 4.7% below, 7.5% above, 3.1% flagged of its cells; mean
# reliable coverage 0.906; 3.7% of the intervals flagged, 10.6% in d8k1m3n1000gaussp243 (above the
# 10% allowed: standard PCA's pooled near-tie flag in 20 of its 100 samples, beside min-max's
# gap at its bound). judge26-27: 81.6% within, 5.4% below, 10.0% above, 3.0% flagged; mean
# reliable coverage 0.908; 3.7% of the intervals flagged, at most 8.2% in a design. With
# judge21-24, 140 designs drawn since the package's intervals last changed: 4,930 within, 294
# below, 596 above, 192 flagged of 6,012 cells (82.0%, 4.9%, 9.9%, 3.2%); mean matching's below
# cells 46 of 101 in the 12 designs whose H gap is within 1.5 noise sds. With judge28-29, 180
# designs: 6,398 within, 355 below, 749 above, 246 flagged of 7,748 (82.6%, 4.6%, 9.7%, 3.2%).
#   What binomial noise alone gives (judge21-25's 4,186 unflagged cells, each at its own count
# of reliable samples): were every cell's coverage 0.90, 93.5% within, 4.1% below, 2.4% above;
# 0.91: 93.4 / 1.8 / 4.8; each cell at its term's mean coverage over the 100 designs: 91.0 /
# 2.2 / 6.8; observed 84.2 / 4.9 / 10.8. The spread of a term's coverage across designs over
# the binomial spread: 1.0-1.4 for standard PCA's errors, variance kept, largest error and loss
# and min-max's errors and error gap (calibrated across designs up to the noise of 100
# samples); 2.1-2.8 for mean matching's losses, errors and gaps, min-max's max_loss_change and
# smallest loss, standard PCA's loss gap (design-dependent miscalibration); 12-20 for min-max's
# gap and ratio over three or more groups (flagged where at the bound).
#   judge24's min-max below cells (t12k2m4n1000gaussp229, d8k1m2n1000gaussp223,
# d12k1m4n2000gaussp236, d10k2m3n1000poisp228) are one quantity each: the losses min-max
# equalises (every group's loss, the largest and smallest equal in the population) at
# 0.81-0.84. Their largest loss's intervals are 3.0-3.4 of the estimate's sd wide (3.29 is
# right at 0.9) and centred 0.0-0.4 sd above the truth (the estimate's bias 0.2-0.6 sd, half of
# what the replicates show taken off): from width and centre about 0.87 is to be expected, and
# 0.81-0.84 is 1-2 binomial sds below that at 100 samples. Mildly narrow or off-centre, no
# mechanism of its own found.
#   Full grid, shard 32 of 80 (run "2026-12-05l-full", 30 samples, 32 designs, 1,389 cells): 19
# within, 6 below, 37 above, 1,327 flagged.
#
# Session of 2026-12-05, third (#44 item 1; main 5c8a6bd; each rule, its judging set and its
# adoption rule written down before any result of it). Mean matching's own near-tie, looked at
# and left open: on judge20-22 (runs "2026-12-05f-before", "-g-before", "-h") its below cells
# sit where the matrix it diagonalises (the scaled pooled covariance on the complement of the
# group means' differences) has eigenvalues k and k + 1 within about 1.4 Gaussian noise sds at
# the population (gap / sqrt(2 (l_k^2 + l_(k+1)^2) / n)): 22 of its 29 below cells in the five
# designs at 0.66-1.41 (t12k3m3n1000gaussp189 5, d10k2m4n1000_2000_3000_1000gaussp186 8,
# t12k3m4n1000gaussp158 4, t8k2m2n1000gaussp190 2, d6k1m2n1000gaussp192 3), at most 2 in each
# of the other 55 (1.45-15). On p186 the estimates of groups c's and d's errors sit 1.2 and 1.5
# of their sds off the truth with widths right: the sample's subspace is turned within the
# tied plane (mean cos^2 of its angle to the population's 0.65) and a group's error along that
# plane runs from the population's 5.54 to 6.01. Not found by the sample's own gap (misses are
# commoner where it is wide: groups c's and d's errors covered 0.77-0.82 where it is below 1.5
# sds, 0.40 above 4; the eigenvalues repel and the bootstrap is confident about a turned
# subspace), nor by the replicates' bias (the kink detector fired in 1% of the samples), nor
# mended by replicates drawn with the tied pair brought together by their seen bias or by a
# Wishart inversion (a proof of concept, 60 samples: coverage and widths unchanged). A gap of 1
# sd is not told from one of 2 sds in one sample, and a flag at the design level would flag
# about a third of a well-behaved design's intervals. Left: intervals that hold a quantity's
# range over the tied plane where the gap is within noise (partial identification).
#   RULE W4: the largest / smallest and the gaps whose interval is a union bound over several
# candidate groups (fp_max_interval(), fp_gap_interval(); max_loss, min_loss, loss_gap,
# max_error, error_gap) read at L4 in {0.80, 0.85, 0.88, 0.92 (now)}, one candidate unchanged.
# CAL on judge19, judge19b, judge20 (60 seen designs, replicates replayed), those cells (min-max's
# gap over three or more groups left out) within / below / above and within less the rest: 0.92
# 668 / 29 / 143 (496), 0.88 670 / 74 / 96 (500), 0.85 656 / 104 / 80 (472), 0.80 634 / 154 /
# 52 (428) -> 0.88. JUDGED on judge23_grid() (20 designs drawn fresh, pops 201-220, on the
# package: run "2026-12-05i", 701 / 34 / 95 / 26 of 856), replayed at 0.88 (run
# "2026-12-05i-w4", those terms' rows): 222 / 8 / 50 -> 234 / 19 / 27; below rose by 11, more
# than the 2 allowed: NOT ADOPTED. Lowering the level helped the gaps and hurt the largest and
# smallest (on the 60: max_loss below 7 -> 27 at 0.88, loss_gap above 49 -> 29, below 2 -> 3).
#   RULE W5: the gaps alone (loss_gap, error_gap with several pairs) at L5 in {0.80, 0.85, 0.88,
# 0.92}. CAL on judge20 and judge23 (40 seen): 0.92 143 / 5 / 52 (86), 0.88 160 / 5 / 35 (120),
# 0.85 171 / 6 / 23 (142), 0.80 175 / 10 / 15 (150) -> 0.80. JUDGED on judge24_grid() (20 drawn
# fresh, pops 221-240: run "2026-12-05j", 710 / 65 / 69 / 30 of 874), replayed at 0.80 (run
# "2026-12-05j-w5", the gaps' rows): 73 / 5 / 22 -> 83 / 9 / 8 (mean |coverage - 0.9| 0.0364 ->
# 0.0327) but below rose by 4, more than the 2 allowed: NOT ADOPTED. Every other cell's verdict
# was the same under W4 and W5. Code reverted; no switch left.
#   judge21-24 on the package (80 designs drawn after its last change was written): 2,817 within,
# 162 below, 361 above, 114 flagged of 3,454 cells (81.6%, 4.7%, 10.5%, 3.3%), mean reliable
# coverage 0.910, 3.6% of the intervals flagged (at most 7.5% in a design). judge24's 65 below
# sit in 13 of its designs (t12k2m4n1000gaussp229 16, d8k1m2n1000gaussp223 12, p228 and p236 7).
#   Full grid, shard 12 of 80 (run "2026-12-05i-full", 30 samples, 32 designs, 1,390 cells): 24
# within, 10 below, 28 above, 1,328 flagged (heavy tails, too few rows per direction, the alike
# designs' undetermined mean directions); the 10 below in a4k1m5n60_3000pois (8, its cells 37-63%
# flagged) and d50k1m5n60_3000lnorm (2, 40-43% flagged). Shard 22 (run "2026-12-05k-full", 32
# designs, 1,409 cells): 8 within, 6 below, 22 above, 1,373 flagged; its well-behaved designs are
# alike (a12k3m5n3000gauss every cell flagged: mean directions not fixed, min-max at a kink;
# a12k2m5n3000pois 8 / 4 / 22: losses and gaps of 0), the other 2 below in d4k1m3n100t5 (63%
# flagged).
#
# Session of 2026-12-05, second (#44 item 1; main 586955b; each rule, its judging set and its
# adoption rule written down before any result of it). On judge19 and judge19b, 54 of the 231
# cells above 0.95 were min-max's loss gap and ratio with three to five groups where the
# population's min-max equalises every loss (gap 0, ratio 1): the fits' gaps were at most 1e-5
# (mostly 1e-9) or at least 1e-3, and an interval that holds its estimate 0 covers 0 always.
#   RULE Z: such a fit's gap reported as 0 and its ratio as 1 with no interval, as two groups'
# are. JUDGED on judge20_grid() (20 designs drawn fresh, pops 141-160, on the package: run
# "2026-12-05f-before", 749 / 28 / 113 / 0 of 890), replayed with Z (run "2026-12-05f-z", min-max
# gap and ratio rows): those cells 6 / 4 / 24 / 0 (34) -> 4 / 6 / 0 / 0 (10, the rest without
# intervals). Below rose: NOT ADOPTED. It showed why: where the population's optimum equalises
# every group but the sample's fit leaves one below the others (d8k1m3n2000gaussp143 in 26 of 100
# samples, t12k2m3n1000gaussp149 in 13), the bootstrap resamples a world whose gap is that
# margin and the interval misses 0 (covering 0.27 and 0.31 of those samples): a kink.
#   RULE F: min-max's gap with three or more groups follows the width rule of errors and price
# (starts at 0 where the estimate is below the interval's width), and where its interval starts
# at 0 the gap's and ratio's intervals (those two terms) are flagged: the losses may all be
# equal, where no interval that holds its estimate covers at the level. No free parameter.
# Checked on judge20 (run "2026-12-05f"): those cells 6 / 4 / 24 / 0 -> 4 / 1 / 1 / 28, every
# other cell the same, 3.7% of the intervals flagged (6.6% in the most flagged design). JUDGED on
# judge21_grid() (20 designs drawn fresh, pops 161-180; run "2026-12-05g-before" on the package,
# 735 / 25 / 138 / 0 of 898), replayed with F (run "2026-12-05g"): those cells 1 / 5 / 30 / 0 ->
# 0 / 0 / 0 / 36 (each flagged in 89-100% of its samples), every other cell the same, 4.1% of the
# intervals flagged (at most 5.3% in a design): ADOPTED. judge21 with F, every cell: 734 / 20 /
# 108 / 36.
#   RULE W3 (written after F was adopted): the largest and smallest loss and the loss and error
# gaps, whose intervals are conservative by construction (over the candidate groups), read at L3
# in {0.90, 0.91, 0.92 (as now)}; on judge19-21, binomial noise taken out, their true coverage
# sat above 0.95 in 12-44% of the cells (means 0.92-0.95) against 0-2% for the rest. CALIBRATION:
# judge19, judge19b and judge20 (60 designs, seen) replayed (runs "2026-12-05-cal-x90" and
# "-x91", those terms' rows; 0.92 is runs "2026-12-05c", "2026-12-05d" and "2026-12-05f"), those
# cells (min-max's gap over three or more groups left out) within / below / above and within
# less the rest: 0.92 505 / 20 / 135 (350), 0.91 534 / 36 / 90 (408), 0.90 532 / 60 / 68 (404)
# -> 0.91. JUDGED on judge22_grid() (20 designs drawn fresh, pops 181-200, on the package with F:
# run "2026-12-05h", 672 / 43 / 89 / 22 of 826), replayed at 0.91 (run "2026-12-05h-w3", those
# terms' rows): 167 / 11 / 43 / 11 -> 169 / 18 / 34 / 11 (mean |coverage - 0.9| 0.0377 ->
# 0.0362). Below rose by 7, more than the 2 the rule allowed: NOT ADOPTED.
#   judge21 and judge22 on the package (40 designs drawn after its last change was written):
# 1,406 within, 63 below, 197 above, 58 flagged of 1,724 cells (82%, 4%, 11%, 3%), mean reliable
# coverage 0.913, 3.5% of the intervals flagged (at most 6.5% in a design).
#
# Session of 2026-12-05 (#44 item 1; main 27ab255; rules and judging sets in the order written,
# each before any result of it). Thirty-two fresh well-behaved designs: judge18_grid() (12) and
# judge18b_grid() (20), replicates saved. The 19 distinct/tie designs of run j, the 40 of run l
# and judge18's 12 (71, looked at before the rules were fixed: calibration) replayed with a
# samples' CSV: on the median design every quantity's intervals sit within 0.2 of the estimates'
# sds of the truth with widths 0.96-1.07 of their spread, except the loss ratio (standard PCA's
# and mean matching's centred 0.32 and 0.43 sds high: the plain percentile interval of skewed
# replicates that sit above the estimate) and min-max's max_loss_change (its estimate below the
# truth by up to 2 sds: d12k3m2n3000gauss -1.95, d12k2m2n1000gauss -1.47, d12k1m2n3000gauss
# -1.32; standard PCA's largest loss is more optimistic than min-max's).
#   RULE C (a fair method's max_loss_change centred on the estimate less c times its paired
# replicates' bias), c in {0, 0.5, 1}: CALIBRATION on the 71, change cells (min-max and mean
# matching) within / below / above / flagged 110 / 25 / 3 / 0 (score 82), 109 / 27 / 2 / 0 (80),
# 94 / 42 / 2 / 0 (50): c* = 0, NOT ADOPTED (runs "2026-12-05-cal-change-0/0.5/1", change rows).
#   RULE R (the loss ratio's interval shifted on the log scale onto the estimate, only where no
# loss is centred elsewhere) and R' (on the log scale, centred on the ratio of the groups' centred
# losses, every method): CALIBRATION on the 71, standard PCA's and mean matching's ratio cells
# 103 / 27 / 8 / 0 (68) -> R 106 / 25 / 7 / 0 (74), R' 109 / 25 / 4 / 0 (80; min-max's 11 / 10 /
# 28 -> 19 / 12 / 18): R' (runs "2026-12-05-cal-ratio-before", "-log-unmoved", "-log"). JUDGING on
# judge18b's 20 (never looked at before; ADOPT if its cells below do not rise, within do not fall,
# mean |coverage - 0.9| does not rise, one strictly better): 31 / 4 / 5 / 0 (0.0354) -> 39 / 1 /
# 0 / 0 (0.0281); min-max's ratio (not in the rule) 1 / 5 / 7 -> 3 / 7 / 3. ADOPTED
# (fp_ratio_interval(); runs "2026-12-05a-before" and "2026-12-05a", all cells).
#   The 20 fresh designs on the package after it: 672 / 127 / 41 / 0 of 840 cells (before: 662 /
# 128 / 50), mean reliable coverage 0.885, 23 cells below 0.80; standard PCA 213 / 30 / 15,
# min-max 199 / 71 / 14, mean matching 260 / 26 / 12. Most cells below in d12k2m2n1000gaussp61
# (13), d10k2m3n1000_3000_1000gaussp79 (11), d10k1m2n2000gaussp74, d10k2m3n1000gaussp62 and
# d12k1m4n1000gaussp80 (10 each). judge18's 12 on the package before: 394 / 78 / 30 / 0 (run
# "2026-12-05-judge18"). Item 1 is not met on fresh data: 15% of the cells below 0.85, min-max's
# most of them.
#   A measuring error found on the way (fixed in truth_of() after these runs): where the
# population's min-max loss gap is 0 to the solvers' precision (snapped to 0) its loss ratio read
# 1 + 8e-9, and the samples' intervals [1, 1 + 6e-9] counted as misses. Recomputed from the
# samples with the ratio's truth 1, min-max's ratio cells of the 13 judge18b designs with 3 or
# more groups: 2 / 3 / 8 / 0 after the change above (recorded 3 / 7 / 3), before it 2 / 3 / 8 / 0;
# of the 49 calibration designs with 3 or more groups 10 / 3 / 36 / 0 (before 9 / 5 / 35). Where
# every group ties at the truth, the ratio's interval starts at 1 whenever the data cannot tell
# the losses apart, and so covers 1 in nearly every sample: "above" is the honest verdict of a
# truth on the boundary (as for min-max's loss gap, truth 0, covered 1.00). Runs recorded before
# 2026-12-05 carry the old truth.
#
#   RULE M2 (min-max's errors and losses centred on the estimate less c times their replicates'
# bias, c in {0.5 (the package), 0.75, 1}; fixed after an offline reconstruction on the 71
# calibration designs' saved replicates, own intervals only, suggested c near 1: losses within /
# below 176 / 56 at 0.5, 198 / 34 at 1). CALIBRATION on the 71 (replicates replayed, every
# min-max cell): 818 / 171 / 70 / 0 (score 577), 815 / 171 / 73 / 0 (571), 826 / 161 / 72 / 0
# (593): c* = 1 (runs "2026-12-05-cal-minmax-0.5/0.75/1", min-max rows). JUDGING on
# judge18c_grid()'s 20 designs drawn fresh (pops 81-100, the bench's truth as fixed above; run
# "2026-12-05b" the package, "2026-12-05b-minmax-1" min-max at c = 1): min-max 208 / 49 / 27 / 0
# (0.0392) -> 194 / 63 / 27 / 0 (0.0424), its losses 44 / 15 -> 38 / 21. NOT ADOPTED: how much of
# min-max's bias the replicates see differs from design to design, and half stays the better
# share on data the rule was not fitted to.
#   judge18c on the package (run "2026-12-05b"): 639 / 152 / 49 / 0 of 840 cells, mean reliable
# coverage 0.884, 29 cells below 0.80, 1.0% of the intervals flagged (at most 8.3% of a
# design's); standard PCA 209 / 39 / 10, min-max 208 / 49 / 27, mean matching 222 / 64 / 12; most
# below in d12k3m4n1000gaussp95 (20), d10k3m3n1000_2000_3000gaussp86 (17), d12k2m4n1000gaussp100
# (14). The loss ratio's log-scale interval checked again there (replicates replayed on the
# package before it): standard PCA's and mean matching's ratio cells 24 / 15 / 1 (0.0656) -> 29 /
# 11 / 0 (0.0503).
#
# Two more shards of the full grid (#44 item 1; run "2026-12-04e"): FAIRPROJ_BENCH_DESIGNS=full,
# FAIRPROJ_BENCH_SHARD=37/80 and 77/80, 30 samples per design, two processes at nice 10 beside
# other runs (31-32 min each), on main 0586369 (before the change just above): 63 designs,
# 2,755 cells, all complete (d = 50 at k = 6 and 12 included). 191 within, 92 below, 61 above,
# 2,411 flagged in >= 80% of their samples (too few rows for the directions 1,658, heavy tails
# 469, group means the data do not fix 282, standard PCA's near-tie 2). No t or log-normal cell
# is left unflagged; of the Gaussian and Poisson cells left, 123 / 74 / 33 and 68 / 18 / 28.
# Well-behaved designs (3: d4k1m5n3000pois, d12k1m5n3000gauss, t12k2m5n1000gauss; 170 cells):
# 88 within, 33 below, 25 above, none flagged (flagged share of the intervals 0, 0, 0.04).
# Below: five groups at 3,000 rows, 0.80-0.83 (25 or 24 of 30, at the band's edge), and the
# tie design with five groups (t12k2m5n1000gauss: 21 cells, 0.70-0.85, min-max 0.70-0.83).
#
# Run "2026-12-03q" also reran two designs of the full-grid sample at 100 samples (main, before
# the variance kept's centring above). d4k1m3n60_3000pois: the fair methods flagged in 63% of
# samples (heavy tails: the Hill index of a 60-row group's squared norms, 10 order statistics,
# falls below 2 for light-tailed skewed counts in 22-47% of samples, for Gaussian rows in 1%);
# over all 100 samples their cells cover 0.79-0.96, mostly 0.83-0.90, and the 37 unflagged
# 0.76-1.0: a mild shortfall, not the 0.75 of 12 samples. A tail test that allows for the
# index's noise at 10 order statistics would lose t3's small groups (index 1.5, flagged 84% at
# 60 rows today), so it is left. d50k1m2n1000gauss: min-max's and mean matching's variance kept
# 0.53 and 0.66, their errors 0.77-0.86, losses 0.97-1.0, standard PCA's errors 0.81-0.86.
#
# Intervals centred on the estimate, never on the bias-corrected estimate (#44 item 1; run
# "2026-12-03k"). Until then fp_interval(correct = TRUE) (groups' errors and losses, variance
# kept, price, the candidates of the largest / smallest) shifted the replicates' quantiles by
# the bootstrap's bias b again, onto the bias-corrected estimate, where |b| exceeded half the
# replicates' sd. Where the cells of the fair methods covered 0.72-0.83 with the right width
# (run "2026-12-03j": min-max's losses at d12k2m5n1000gauss, width 0.98 of the estimates'
# spread, mean centre 0.10 sd off the truth, coverage 0.80), the intervals' centres spread
# 15-18% more than the estimates: b straddles the gate from sample to sample and the centre
# jumps by b. Variants, rule fixed before any package-level result: P the package; N never the
# second shift; H always half of it (1.5 b); S a ramp (the second shift b clamp((|b| / s -
# 0.25) / 0.5, 0, 1)). Calibration on the seven calibration designs of the near-tie study
# (their saved replicates replayed; unflagged cells within / below / above, mean |c - .9|):
#   P 138 / 56 / 12 0.0486;  N 154 / 34 / 18 0.0436;  H 145 / 44 / 17 0.0444;  S 121 / 46 / 11
#   0.0485 (S also moved flags). Chosen: N (most within, smaller deviation).
# Judging (ADOPT if within does not fall, below does not rise, mean |c - .9| does not rise):
#   near_tie_judge_grid()'s replicates: P 164 / 73 / 23 0.0519 -> N 175 / 56 / 29 0.0465;
#   and, as a third set, own_tie_judge_grid()'s (run "2026-12-03h"): P 171 / 77 / 22 0.0543 ->
#   N 183 / 68 / 19 0.0516. ADOPTED. Mean reliable coverage by method (judge): standard 0.890
#   -> 0.896, min-max 0.848 -> 0.865, mean matching 0.890 -> 0.895. Flags unchanged. The
#   golden set's nine audit cases moved in their interval columns only.
#
# The reduced grid on main after the near-tie multiplier (run "2026-12-03j", 60 samples, 100
# replicates, two processes at nice 10, 11 min): 17 designs, 687 cells. Every design that is
# not well-behaved (few rows, d = 20 and 50, t5, t3, log-normal) is flagged in at least 80% of
# its samples in every cell, except d12k3m2n60_3000gauss (85% of its intervals; 6 cells
# unflagged, 2 of them below). Well-behaved designs: 254 cells, 138 within, 56 below, 12 above,
# 48 flagged (the alike design, isotropic after scaling, in every sample; d12k3m3n1000gauss
# 29% of its intervals, standard PCA's near-tie). The cells below 0.85 there are the fair
# methods' (min-max 33, mean matching 19, standard PCA 4; mean reliable coverage 0.79 / 0.81 /
# 0.83): min-max's group losses and errors at d12k2m5n1000gauss, d12k3m3n1000pois and
# t4k1m3n1000gauss, mean matching's at d12k2m5n1000gauss and t4k1m3n1000gauss.
#
# Standard PCA's pooled near-tie flag, its multiplier calibrated (#44 item 1; runs
# "2026-12-03i-before" and "2026-12-03i"; superseded by run "2026-12-04d", c = 0, above). fp_audit_near_tie() flags where the pooled gap at k,
# less its replicates' bias, is below c (sqrt(k) + sqrt(d - k)) times their sd. With c = 1 the
# flag fired in designs whose standard intervals held (own_tie_judge_grid(): d12k3m4n2000gauss
# flagged in 97% of its samples, its flagged intervals covering 0.84-0.90), so that four
# well-behaved designs had 14-30% of their intervals flagged. Rule fixed before any result:
# CALIBRATION on d4k1m2n1000gauss, d12k3m3n1000gauss, a12k3m2n1000gauss, d12k3m3n1000pois,
# d12k2m5n1000gauss, t4k1m3n1000gauss, d12k3m3n1000t5 (60 samples, drawn once and replayed for
# each c): c* the smallest of 1, 0.75, 0.5, 0.35, 0.25 whose count of standard PCA's cells below
# 0.85 is no larger than at c = 1. Standard cells below / flagged, and the well-behaved designs'
# flagged share: c = 1 4 / 37, 0.189; 0.75 4 / 37, 0.186; 0.5 14 / 24, 0.175; 0.35 13 / 24,
# 0.160; 0.25 17 / 13, 0.146 (below 0.5, d12k3m3n1000gauss, a pooled gap of 6%, goes
# unflagged in part and misses). c* = 0.75. JUDGING on near_tie_judge_grid() (seven designs
# fixed before calibrating, 60 samples, drawn at c = 1 and replayed at 0.75): ADOPT if the
# flagged share of the intervals falls and the count of cells below 0.85 rises by at most a
# tenth of the cells that leave "flagged". Result: flagged share 0.186 -> 0.127, below 76 -> 73,
# within 162 -> 164, mean |c - .9| of the unflagged cells 0.0523 -> 0.0519: ADOPTED. By design,
# flagged share before -> after: d10k2m4n1000gauss 0.306 -> 0.301, d12k2m3n1000gaussp3 0.086 ->
# 0.020, d12k3m2n2000pois 0.304 -> 0.251, d12k3m3n1000gaussp3 0.206 -> 0.045, d6k1m3n1000gauss
# 0 -> 0, t12k3m3n1000gaussp3 0.106 -> 0.005, t8k2m3n1000gauss 0.297 -> 0.262. Every flag left
# there is standard PCA's near-tie; three designs stay above the 10% the issue allows.
# Per design, the ratio r = (gap - bias) / ((sqrt(k) + sqrt(d - k)) sd) of the samples (median)
# against the mean coverage of standard PCA's intervals over all samples: r 0.10-0.30 (the
# alike design, d12k3m3n1000gauss) 0.80-0.81; r 0.43-0.84 0.87-0.90; r >= 1 0.88-0.92. The
# flag is a per-sample threshold on a statistic whose designs overlap: r's median / 80th
# percentile is 0.30 / 0.55 at d12k3m3n1000gauss (standard's intervals cover 0.81 unflagged)
# and 0.44 / 0.57 at d10k2m4n1000gauss, whose standard intervals, replayed with the flag off
# (c = 0), cover 0.89 (min 0.83, 1 of 15 cells below; d12k3m2n2000pois 0.88, t8k2m3n1000gauss
# 0.90): there the flag is pure cost, and no threshold on r both catches the first in 80% of
# its samples and spares the second. What tells them apart is still to be found.
#
# TRIED AND NOT ADOPTED (#44 item 1; 2026-12-03, after the centring of run "2026-12-03k"): a
# smooth widening of standard PCA's intervals in place of most of the near-tie flag. Rule fixed
# before any result: standard's intervals widened about the estimate by w(r) = 1 + a (1 - r /
# r0)+ (r as above, per sample), r0 in {0.5, 0.75, 1, 1.5}, a in {0.25, 0.5, 0.75, 1}, the flag
# kept below c0 in {0, 0.25, 0.35, 0.5}; CALIBRATION on the seven calibration designs above
# (their saved replicates replayed with the flag off, c = 0; the widening applied to each
# sample's interval ends): the variant with the fewest standard cells below + above 0.85-0.95;
# JUDGING on near_tie_judge_grid()'s saved replicates: ADOPT if its standard cells below + above
# are no more than the package's (c = 0.75, no widening) and the flagged share of standard's
# intervals falls by at least a third. Standard cells within / below / above / flagged, and
# standard's flagged share:
#                              calibration                 judging
#   package (c = 0.75)         50 / 2 / 2 / 37   0.399     35 / 8 /  9 / 39   0.416
#   flag off (c = 0)           55 / 14 / 9 / 13  0.191     69 / 12 / 10 / 0   0.034
#   chosen: c0 0.35, r0 0.75,  59 / 3 / 5 / 24   0.325     62 / 6 / 23 / 0    0.111
#           a 1 (w 1-1.53)
# NOT ADOPTED (judging: 29 cells out of the band against 17). The widening does what the flag
# cannot at d12k3m3n1000gauss (calibration: 9 of its 13 cells within, 3 above, none flagged) but
# makes d10k2m4n1000gauss and t8k2m3n1000gauss over-cover (9 and 5 cells above 0.95), the two
# judging designs whose standard intervals hold with the flag off. Replayed with the flag off,
# the judging designs' standard cells are 69 within, 12 below, 10 above: the cells below are
# spread over designs with and without a pooled near-tie (d6k1m3n1000gauss, r 1.82: group a's
# error 0.80; d12k2m3n1000gaussp3, r 1.10: the loss ratio 0.73), so there the flag (39 cells)
# buys 4 cells out of "below" at the cost of 34 cells within.
#
# The own near-tie correction judged on designs it was not tuned on (runs "2026-12-03h-before",
# "2026-12-03h" and "2026-12-03h-own-tie-off"): own_tie_judge_grid(), seven designs and the rule
# fixed before the run, 60 samples each, 100 replicates; the package before the correction (main
# after #47/#48) drew and saved the replicates, the package with it replayed them, and replayed
# them again with option fairproj.audit_own_tie = FALSE (the candidates' bias-corrected centring
# alone). Rule: ADOPT if over the well-behaved cells (Gaussian / Poisson, >= 1,000 rows per
# group, d <= 12: 248 cells of six designs, d16k4m2 is not one) not flagged, the count within
# 0.85-0.95 does not fall and the mean |coverage - 0.9| does not rise, and no design's flagged
# share rises above 10%. One process at nice 10: 5 min drawing, 1.5 min per replay.
#                     well-behaved, 209 unflagged cells     all 233 unflagged cells
#                     within  below  above  mean |c - .9|   within  below  above  mean |c - .9|
#   before             137     58     14     0.0552           143     75     15     0.0645
#   after              138     55     16     0.0509           151     65     17     0.0527
#   own-tie off        146     49     14     0.0503           155     63     15     0.0544
# Flagged shares per design unchanged (0-30%; the flags do not depend on the correction; four
# well-behaved designs were above 10% before it too). ADOPTED by the rule (137 -> 138 within,
# 0.0552 -> 0.0509). But the well-behaved gain is the candidates' centring: against it alone the
# own near-tie correction moves 8 well-behaved cells out of the band (6 within -> below, 2 ->
# above, by 1-3 samples of 60; none into it; mean |c - .9| 0.0503 -> 0.0509), as the controls of
# run "2026-12-02g" fell by 6; it helps where the groups' own spectra are flat at k in many
# directions (d16k4m2n1000gauss, not well-behaved: min-max's losses, largest / smallest loss
# 0.75 -> 0.85, within 9 -> 13 cells, mean |c - .9| 0.090 -> 0.068). By design, before -> after:
#   d8k2m3n1000gauss 25 -> 25 within; d16k4m2n1000gauss 6 -> 13; d12k3m4n2000gauss 24 -> 23;
#   t10k2m2n1000gauss 17 -> 18; d12k3m3n1000poisp2 27 -> 26; d12k3m3n1000gaussp2 21 -> 22;
#   d12k3m2n3000gaussp2 23 -> 24 (min-max's largest loss 0.73 -> 0.83, 0.85 with the
#   correction off). Below 0.85 and unflagged after, mean over the well-behaved designs:
#   min-max's price and variance kept (0.82), the loss ratios (0.83); at d = 16 min-max's
#   error gap (0.78).
#
# A group's own near-tie at k (#44 item 1, third round; runs "2026-12-02g-before" and
# "2026-12-02g"; fp_audit_own_tie() and fp_audit_unseen() in R/audit-intervals.R). ADOPTED: the
# bias of each group's own best error that the bootstrap misses at a near-tie of its own
# eigenvalues k and k + 1 is estimated on the group's spectrum (Gaussian sample covariances from
# a population spectrum moved until their mean eigenvalues equal the sample's, 100 Wishart
# draws, at most 10 eigenvalues either side of k; the top-k sum's bias there less its bias at
# the sample's spectrum), and the intervals' centres move by it: the group's losses (standard
# PCA, mean matching), and for min-max, by the envelope theorem, every loss its dual weights w
# hold by sum_g w_g u_g and their errors by that less u_g; the largest and smallest loss and
# error, gaps, from the moved centres. Also the largest / smallest of several quantities
# (fp_max_interval()) now centre each candidate as the groups' own intervals do (on the
# bias-corrected estimate where the bias exceeds half the replicates' sd): min-max's largest
# loss covered 0.24 beside its groups' losses' 0.66 in one design because only the latter did.
# Mechanism check (outside the audit, the group's best error alone in the audit's units; 40
# samples, 100 block replicates; true bias (se) / the bootstrap's / unseen / the estimate u):
#   d12k3m2n3000gauss group a (own gap 0.009)  -0.121 (0.010) / -0.088 / -0.034 / 0.053
#   d12k3m3n1000gauss group a (own gap 0.011)  -0.147 (0.015) / -0.104 / -0.043 / 0.033
#   d4k1m2n1000gauss  group a (own gap 0.028)  -0.021 (0.008) / -0.021 /  0.000 / 0.012 (control)
#   groups with own gaps 0.14-0.43: u <= 0.002.
# How it was run: the package before the change drew every audit's replicates and saved them
# (FAIRPROJ_BENCH_DRAWS_SAVE; run "2026-12-02g-before"), the package after replayed them
# (run "2026-12-02g"), so both are judged on the same samples and replicates. FAILING designs
# d12k2m5n1000gauss, d12k3m2n3000gauss, d12k3m3n1000gauss, 50 samples each; CONTROLS
# d4k1m2n1000gauss, t4k1m3n1000gauss, d12k1m3n1000gauss, a12k3m2n1000gauss, d12k3m3n1000pois,
# 30 samples each; 100 replicates; one process at nice 10 on the shared 2-core machine (load
# 4-5), 13 and 10 min drawing, 2 min per replay. Cells within / below / above / flagged:
#   failing (133 cells)   50 / 47 / 12 / 24  ->  54 / 44 / 11 / 24
#   controls (199 cells)  79 / 50 / 22 / 48  ->  73 / 54 / 24 / 48
# Own quantities (errors, losses, largest and smallest loss, largest error, variance kept) of
# the cells not flagged, mean coverage (mean |coverage - 0.9|): failing 0.815 (0.096) -> 0.857
# (0.055); controls 0.865 (0.057) -> 0.862 (0.060): the controls' verdicts that moved did so by
# 1-3 samples of 30 (a coverage's standard error 0.055), both ways, at the band's edges.
#   d12k3m2n3000gauss min-max: losses 0.66 -> 0.82, largest / smallest loss 0.24 -> 0.82, largest
#     error 0.62 -> 0.80, error gap 0.56 -> 0.72; mean matching's loss of group a 0.66 -> 0.80,
#     its largest loss 0.60 -> 0.90; standard PCA (flagged in 80%, near-tie) largest loss
#     0.10 -> 1.00.
#   d12k3m3n1000gauss min-max: losses 0.80 -> 0.88, largest / smallest 0.64 -> 0.84, largest
#     error 0.70 -> 0.82, errors of groups a and c 0.80 / 0.78 -> 0.82 / 0.84.
#   d12k2m5n1000gauss: min-max's losses 0.78-0.80 -> 0.80-0.82, largest 0.72 -> 0.80; mean
#     matching unchanged (errors 0.68-0.84, losses 0.70-0.84, variance kept 0.84).
# Left (not solved): d12k2m5n1000gauss's failures have another cause. Its groups' own gaps are
# wide (0.08-0.34; u <= 0.012), but the matrix mean matching diagonalises, the pooled covariance
# off the four mean-difference directions, has a near-tie at k in the population (relative gap
# 0.056, and the next eigenvalues within 5-13%: 0.150, 0.141, 0.130, 0.124 of its trace), as
# does min-max's dual-weighted sum (relative gaps 0.04 at k and 0.05 at k + 1). There the
# estimates are off by up to 0.95 of their sd in both directions (mean matching's error of
# group e -0.95, loss of group c +0.77), with widths 0.96-1.09 of the true spread, and the
# bootstrap sees a fifth of it (-0.19): the repulsion of the fitted subspace's own eigenvalues,
# which the own-spectrum correction does not reach (the quantity is a group's error at another
# matrix's top-k subspace, not an eigenvalue sum). The near-tie detector tried for the fair
# methods (run "2026-12-02d") did not tell these samples apart; a correction would need the
# same de-repelling simulation on that matrix with the group errors evaluated at its simulated
# subspaces.
#
# Heavy tails and rows per direction (#44 item 1, runs "2026-12-02e-cal0", "2026-12-02e-cal"
# and "2026-12-02e"; fp_kurtosis_max and fp_rows_per_direction_min in R/audit-intervals.R).
# ADOPTED: a group's intervals are flagged where (a) its blocks' kurtosis against Gaussian rows
# (fp_block_kurtosis(): the spread of the whitened block covariances over a Wishart's; about 1
# for Gaussian rows, (nu - 2) / (nu - 4) for t) exceeds 1.5 and 1 + 4 of its Gaussian standard
# errors ("heavy tails ... times a Gaussian's"), or (b) it has fewer than 20 rows per direction
# estimated, n < 20 k (d - k) ("too few rows ... fewer than 20 per direction").
# How it was run: every audit's bootstrap replicates were drawn once and saved
# (FAIRPROJ_BENCH_DRAWS_SAVE), then replayed (FAIRPROJ_BENCH_DRAWS_REPLAY) with each candidate
# rule, so that all candidates are judged on the same samples and replicates (replay with the
# rules off reproduced every verdict and coverage of the drawing run). 100 replicates per
# audit; CALIBRATION designs 40 samples each, JUDGING designs 30 (the same samples as run
# "2026-12-02c": its 313 cells came out identical, 62 within / 73 below / 22 above / 156
# flagged). Two processes at nice 10 on the shared 2-core machine (five helpers), 11-12 min
# drawing; a replay takes 1-3 min.
# CALIBRATION designs: the seven of the kink flag below, plus d12k1m3n1000t5, d12k2m3n300t5,
# d4k1m2n1000lnorm (heavy tails and skew) and d12k2m3n100gauss (few rows), none of them
# judging designs. Kurtosis ratio per group (10% / 50% / 90% of samples, largest): Gaussian
# designs 0.91-0.98 / 0.99-1.01 / 1.03-1.07, largest 1.16 (d = 4); Poisson 1.02 / 1.06 / 1.09,
# largest 1.13; t5 1.56-1.83 / 1.78-2.16 / 2.13-2.76; log-normal (d = 4) 3.66 / 4.82 / 7.74.
# Rows per direction: 5 (d12k2m3n100), 15 (d12k2m3n300), 91 (d = 12, k = 1), >= 28 in every
# well-behaved design (d <= 12, n >= 1000). Verdicts of the 441 calibration cells
# (within / below / above / flagged):
#   rules off (run "2026-12-02e-cal0")        160 / 120 / 32 / 129
#   kurtosis > 1.5, rows/direction < 20       124 /  47 / 15 / 255   <- chosen ("2026-12-02e-cal")
#   kurtosis > 1.5, rows/direction < 10       137 /  59 / 20 / 225   (d12k2m3n300gauss: 12 below)
#   kurtosis > 2,   rows/direction < 20       130 /  57 / 15 / 239   (d12k1m3n1000t5: 10 below)
# With the chosen rules the t5, log-normal and few-rows calibration designs are flagged in
# every cell (they had 24, 18, 19 and 12 cells below 0.85); the seven well-behaved and alike
# designs keep every verdict (no new flag: the largest kurtosis there is 1.16).
# JUDGING designs (the seven of the kink flag; never looked at before the rules were fixed),
# 313 cells: before 62 / 73 / 22 / 156, after 37 / 35 / 13 / 228 (run "2026-12-02e"):
#   d12k3m3n1000t5      9 / 17 / 4 / 13  ->  43 flagged (kurtosis 1.81 / 2.13 / 2.69)
#   d12k3m3n1000lnorm   4 /  5 / 3 / 31  ->  43 flagged (kurtosis 2.17 / 2.49 / 3.19)
#   d12k3m3n100gauss   12 / 16 / 2 / 13  ->  43 flagged (27 directions, 100 rows: 3.7 per direction)
#   d12k2m5n1000gauss, d12k3m3n1000gauss, d12k3m3n1000t3, a12k2m3n1000gauss: unchanged (no new
#   flag; the 35 cells still below are min-max and mean matching at d = 12 with 1,000 rows).
# The 25 within cells that became flagged are the t5, log-normal and 100-row designs' cells
# that covered by chance or in part; their designs failed as a whole.
# TRIED AND NOT ADOPTED: other centrings of the own intervals (groups' errors and losses,
# variance kept) on the calibration samples' replicates, 207 cells (within / below / above,
# mean coverage): the package's (shift by the bootstrap's bias b, by 2 b where |b| > half the
# replicates' sd) 114 / 86 / 7, 0.826; always by b 114 / 86 / 7, 0.774; always by 2 b 114 / 89
# / 4, 0.815; bias-corrected percentile (BC, z0 from the share of replicates below the
# estimate) 98 / 108 / 1, 0.727; plain percentile 95 / 104 / 8, 0.703. Where min-max fails at
# d12k3m2n3000gauss the bootstrap sees about half the bias of a loss (bias / sd 1.14 seen,
# 2.38 true), so no centring from the same replicates reaches it.
#
# The kink flag (#44, run "2026-12-02c"; fp_kink_z_max in R/audit-intervals.R): a fair
# method's intervals at k are flagged where the largest |bias| / sd of its replicates (group
# errors, losses, variance kept) exceeds a threshold. CALIBRATION designs (the threshold was
# chosen on these only; 40 samples each, FAIRPROJ_BENCH_DIAG=1, the package before the flag):
#   d4k1m2n1000gauss, t4k1m3n1000gauss, d12k1m3n1000gauss, d12k2m3n300gauss,
#   a12k3m2n1000gauss, d12k3m2n3000gauss, d12k3m3n1000pois
#   (d4k1m5n1000gauss gave no intervals with a truth; d12k3m5n1000gauss was stopped unfinished).
# JUDGING designs (never looked at before the threshold was fixed; 30 samples each, with the
# flag): d12k2m5n1000gauss, d12k3m3n1000gauss, d12k3m3n1000t5, d12k3m3n1000t3,
#   d12k3m3n1000lnorm, d12k3m3n100gauss, a12k2m3n1000gauss.
# Calibration (fair methods' cells, i.e. min-max and mean matching; per-sample z_method of the
# samples' CSV): the median of the largest |bias| / sd was 0.3-0.8 in five designs, 1.1-1.2 in
# d12k3m2n3000gauss, and in the alike one (two groups from one population, scaled: an
# isotropic population, where min-max's subspace is not determined and its intervals covered
# 0.30-0.60 for the errors, 0.075 the largest error, 0 the variance kept) its 10-90% range was
# 2.2-3.5. Thresholds 3 / 2.5 / 2 / 1.5 / 1 flagged 0.5 / 0.8 / 0.9 /
# 1.8 / 11.9% of the intervals of fair cells that cover within 0.85-0.95; from 2.5 down the
# alike design's fair cells are flagged in >= 80% of samples. Below 2 the flag fires within the
# designs that fail (d12k3m2n3000gauss: min-max's largest loss covered 0.23) without choosing
# the samples that miss (at 1, 70% of its samples flagged, the rest covering 0.56): a
# design-level failure that bias / sd does not detect. Chosen: 2.
# Judging (run "2026-12-02c" rows; 30 samples each, two processes at nice 10-19 on the shared
# 2-core machine, 4-8 min each; verdict counts per cell, before = the same samples with the
# kink flag undone, which changes no interval):
#   a12k2m3n1000gauss   before: 1 within, 12 below, 2 above, 28 flagged -> after: 43 flagged
#   d12k2m5n1000gauss   23 within, 22 below, 10 above (unchanged: min-max 0.77-0.83, mean
#                       matching 0.67-0.83 where below; their |bias| / sd stays under 2)
#   d12k3m3n1000gauss   14 / 13 / 3 / 13 flagged (standard's near-tie), unchanged
#   d12k3m3n1000t5      9 / 17 / 4 / 13, unchanged (below: 0.44-0.84, too narrow)
#   d12k3m3n1000t3      43 flagged (heavy tails), unchanged
#   d12k3m3n1000lnorm   4 / 5 / 3 / 31 flagged, unchanged
#   d12k3m3n100gauss    12 / 16 / 3 / 13, unchanged (below: 0.33-0.83)
#   all 313 cells: within 63 -> 62, below 85 -> 73, above 24 -> 22, flagged 141 -> 156.
# The kink flag fired on no interval outside the alike design (0 of 5,640 fair methods'
# intervals there; in it on every min-max interval, 0.5 of its fair intervals, mean matching's
# being flagged already); of the fair cells within 0.85-0.95 before, 30 of 1,620 intervals are
# newly flagged (1.9%), all in the alike design's one such cell (min-max's error gap). The rows of
# run "2026-12-02c-cal" are the calibration designs, run with the package before the flag.
#
# A near-tie detector for the fair methods (#44, runs "2026-12-02d-cal" and "2026-12-02d"):
# TRIED AND NOT ADOPTED, it does not tell the failing cells from calibrated ones. Proposed: as
# fp_audit_near_tie() judges standard PCA's pooled gap, judge the gap of the matrix a fair
# method diagonalises (min-max: sum_g w_g C_g at its dual weights; mean matching: the pooled
# covariance off the group means' differences) against its replicates; for min-max, whose
# optimum sits where its dual pulls eigenvalues k and k + 1 together (its solution mixes them),
# also the gaps just outside that pair. Statistics `tie_at`, `tie_out` of the samples' CSV
# (FAIRPROJ_BENCH_DIAG=1, "Near-tie of a fair method" below); the cell table's `tie_flagged` is
# the share of samples the candidate rule fires on. Both runs: the package as merged (kink flag
# on; every interval, flag and verdict of the judging designs equal run "2026-12-02c"'s),
# calibration designs 40 samples, judging 30, two processes at nice 15, 2-3 min each.
# Calibration (10/50/90% of the per-sample statistics, min-max; tie_at / tie_out):
#   d12k3m2n3000gauss (fails, 0.23-0.75)  0.20/0.44/0.72   0.00/0.39/0.66
#   d12k2m3n300gauss  (partly below)      -0.18/0.26/0.62  -0.18/0.15/0.43
#   d12k1m3n1000gauss (calibrated)        0.41/0.76/1.08   0.01/0.28/0.57
#   d12k3m3n1000pois  (10 cells 0.79-0.84) 0.72/0.98/1.44  1.13/1.43/1.70
#   d4k1m2n1000gauss, t4k1m3n1000gauss    medians 1.5-2.6  0.9-4.1
# At d = 12 the gaps sit within about 1-5 of their sds in calibrated and failing designs alike.
# Share of the fair intervals in cells within 0.85-0.95 newly flagged, against thresholds
# 0 / 0.25 / 0.4 / 0.5 / 0.75: tie_at alone 1.9 / 5.9 / 10.2 / 14.7 / 26.6 %, tie_out alone
# 2.9 / 10.1 / 17.4 / 21.7 / 40.0 %; d12k3m2n3000gauss's min-max below cells reach 80 % of
# samples flagged only at tie_at < 0.75 (26.6 %). The most flags at about 10 %: tie_at < 0.5
# and tie_out < 0.75 (10.5 % of the calibrated fair intervals; 62 % of d12k3m2n3000gauss's
# min-max samples, 80 % of d12k2m3n300gauss's): the candidate, `tie_rule()`. Within the failing
# cells it does not choose the samples that miss: d12k3m2n3000gauss's min-max covered 0.49
# where it fired, 0.60 where not.
# Judging (the candidate, fixed above): d12k2m5n1000gauss's min-max fired in 63 % of samples
# and its below cells covered 0.83 where it fired, 0.77 where not (mean matching 50 %; 0.80 /
# 0.71); it fired on 41 % (652 of 1,590) of the fair intervals in cells within 0.85-0.95, and
# on 23 % of d12k3m3n1000gauss's min-max. Verdicts of the 313 cells, package (before = after,
# nothing adopted): 62 within, 73 below, 22 above, 156 flagged; had the candidate been adopted:
# 41 within, 52 below, 24 above, 196 flagged (of the 62 within, 13 would be flagged and 16 move
# to below or above on fewer samples; of the 73 below, 20 flagged, 8 within or above).
#
# Last measured (bench/audit-coverage.csv; its column `run` says which run each row is from:
# "2026-12-02b" the rows below, "2026-12-02a" the previous run's rows of the three designs not
# rerun, t3, t5 and d = 20 with 100 rows, measured before the loss floor rule): the WELL-BEHAVED designs of the reduced
# grid only (6 designs, 254 cells, 25 samples each, so a coverage carries a standard error of
# about 0.06 and verdicts near the band's edges are noise), after a loss's interval starts at 0
# only within its noise floor and the largest loss's only where every group's does (#44); two
# processes at nice 19 on a shared 2-core machine (load 6-7), 30-35 min each:
#   FAIRPROJ_BENCH_DESIGNS=d4k1m2n1000gauss,d12k3m3n1000gauss,a12k3m2n1000gauss,d12k3m3n1000pois,
#   d12k2m5n1000gauss,t4k1m3n1000gauss FAIRPROJ_BENCH_NSIM=25 FAIRPROJ_BENCH_SHARD=1/2 and 2/2.
# The other 11 designs of the reduced grid (few rows, many directions, heavy tails, skew) were
# not rerun; the previous run of three of them (t3, t5, d = 20 with 100 rows) keeps its rows in
# the file (run "2026-12-02a"; that run's 250 cells: 50 within, 53 below, 35 above, 112 flagged).
#  * 254 cells: 71 within 0.85-0.95, 88 below, 58 above, 37 flagged (>= 80% of samples).
#  * The three designs also in the previous run (d4k1m2, d12k3m3 Gaussian and Poisson; 121
#    cells): the same verdicts in 120 cells (mean matching's loss of group b at d = 4: 0.88 ->
#    0.84, one sample); no loss-type interval starts at 0 any more where the truth is positive
#    (share of samples from 0 in those cells: 0.091 -> 0).
#  * Flagged: 13 cells of d12k3m3n1000gauss (standard PCA, a pooled near-tie, as before) and 24
#    of a12k3m2n1000gauss (two groups from one population, scaled: every pooled eigenvalue
#    tied, so standard PCA flagged for the near-tie and mean matching for group means the data
#    do not fix). 0.146 of all intervals flagged, 0.059 without the alike design.
#  * Silent failures left: min-max in the alike design, whose subspace is as undetermined as
#    standard PCA's there, is not flagged (largest error 0.04, variance kept 0.00, errors
#    0.28-0.64): no near-tie detector for min-max or mean matching yet. At d = 12 with 5
#    groups (d12k2m5) min-max's losses, errors, variance kept and price cover 0.72-0.84 and
#    mean matching's errors and variance kept 0.68-0.84, unflagged; the tie design (t4k1m3, the
#    first group's eigenvalues 1 and 2 within 1%) has 20 cells at 0.76-0.84, unflagged.
suppressPackageStartupMessages(library(fairproj))
env <- function(name, default) {
  v <- Sys.getenv(name, "")
  if (nzchar(v)) v else default
}
nsim <- as.integer(env("FAIRPROJ_BENCH_NSIM", "100"))
nrep <- as.integer(env("FAIRPROJ_BENCH_REPLICATES", "100"))
which_designs <- env("FAIRPROJ_BENCH_DESIGNS", "reduced")
shard <- as.integer(strsplit(env("FAIRPROJ_BENCH_SHARD", "1/1"), "/")[[1L]])
out_csv <- env("FAIRPROJ_BENCH_OUT", "")
samples_csv <- env("FAIRPROJ_BENCH_SAMPLES", "")
# FAIRPROJ_BENCH_DIAG=1: record, for every interval of the samples' CSV, the bootstrap's bias
# over the replicates' sd (`z_own`: of the interval's own quantity where it has replicates of
# its own, a group's error or loss, the variance kept; `z_method`: the largest |bias| / sd over
# the method's group errors, losses and variance kept), from the replicates the audit draws (a
# trace on the package's interval code: the bench's own instrument, not a package feature)
# With it, also the near-tie statistics of each fair method (`tie_at`, `tie_out`; see "Near-tie
# of a fair method" below), from a trace on the package's solver calls, and min-max's `switch`
# (the share of replicates whose active set differs from the sample's).
diag_on <- identical(env("FAIRPROJ_BENCH_DIAG", ""), "1")
level <- 0.9
methods <- c("standard", "minmax", "mean")

# ---- designs --------------------------------------------------------------------------------
# `pop`: another population (and other samples) of the same kind, named with the suffix
# "p<pop>" (the name seeds the population and its samples).
design <- function(d, k, m, n, dist = "gauss", shape = "distinct", pop = 0L) {
  nm <- sprintf("%s%dk%dm%dn%s%s%s", substr(shape, 1L, 1L), d, k, m, paste(n, collapse = "_"), dist,
                if (pop) paste0("p", pop) else "")
  list(name = nm, d = d, k = k, m = m, n = rep_len(n, m), dist = dist, shape = shape)
}
full_grid <- function() {
  out <- list()
  for (d in c(4, 12, 20, 50)) {
    for (k in unique(pmax(1, c(1, round(d / 8), round(d / 4))))) {
      for (m in c(2, 3, 5)) {
        for (n in list(50, 100, 300, 1000, 3000, c(60, 3000))) {
          for (dist in c("gauss", "t5", "t3", "lnorm", "pois")) {
            for (shape in c("distinct", "alike", "tie")) {
              if (shape == "tie" && dist == "pois") next
              out[[length(out) + 1L]] <- design(d, k, m, n, dist, shape)
            }
          }
        }
      }
    }
  }
  out
}
reduced_grid <- function() {
  c(
    # well behaved: Gaussian / light tails, 1,000 rows per group, d up to 12
    list(design(4, 1, 2, 1000), design(12, 3, 3, 1000), design(12, 3, 2, 1000, shape = "alike"),
         design(12, 3, 3, 1000, "pois"), design(12, 2, 5, 1000), design(4, 1, 3, 1000, shape = "tie")),
    # few rows, many directions, unequal sizes
    list(design(12, 3, 3, 100), design(20, 5, 3, 100), design(20, 5, 3, 1000), design(12, 3, 2, c(60, 3000)),
         design(4, 1, 2, 50), design(50, 12, 2, 300)),
    # heavy tails, skew
    list(design(12, 3, 3, 1000, "t5"), design(12, 3, 3, 1000, "t3"), design(12, 3, 2, 300, "t3"),
         design(12, 3, 3, 1000, "lnorm"), design(4, 1, 2, 3000, "t3"))
  )
}
# Designs that judged the own near-tie correction (run "2026-12-03h"), chosen before it ran and
# never used to tune it: other d, k, m and sizes, a tie at d = 10, and other populations of
# two tuning designs' kinds.
own_tie_judge_grid <- function() {
  list(design(8, 2, 3, 1000), design(16, 4, 2, 1000), design(12, 3, 4, 2000), design(10, 2, 2, 1000, shape = "tie"),
       design(12, 3, 3, 1000, "pois", pop = 2L), design(12, 3, 3, 1000, pop = 2L), design(12, 3, 2, 3000, pop = 2L))
}
# Designs that judge the pooled near-tie flag's multiplier (fp_near_tie_c, run "2026-12-03i"),
# fixed before it was calibrated: other populations, d, k, m and sizes, and two tie designs
# (where the flag must still fire).
near_tie_judge_grid <- function() {
  list(design(12, 3, 3, 1000, pop = 3L), design(10, 2, 4, 1000), design(12, 3, 2, 2000, "pois"),
       design(12, 2, 3, 1000, pop = 3L), design(6, 1, 3, 1000), design(8, 2, 3, 1000, shape = "tie"),
       design(12, 3, 3, 1000, shape = "tie", pop = 3L))
}
# Designs that judge the bias-corrected centring of groups with few rows per direction
# (fp_small_group_rho, run "2026-12-03n"), fixed before it was calibrated: 20-35 rows per
# direction in the smallest group, equal and unequal sizes, Gaussian and Poisson columns.
small_group_judge_grid <- function() {
  list(design(4, 1, 2, 80), design(6, 1, 3, c(120, 2000)), design(8, 1, 2, c(200, 1000)),
       design(10, 1, 2, c(250, 3000), "pois"), design(6, 2, 2, 200), design(12, 1, 3, 300),
       design(4, 1, 3, c(75, 3000)), design(8, 2, 3, 300, "pois"))
}
# Designs that judge the bias-corrected centring of the fair methods' variance kept and price
# where their groups have 20 to 25 rows per direction (run "2026-12-03s"), fixed before any
# result: wide d at k = 1, k = 2 at d = 12-20, equal and unequal sizes, Gaussian and Poisson.
small_vk_judge_grid <- function() {
  list(design(50, 1, 3, 1000), design(40, 1, 2, 800), design(20, 2, 2, 800), design(30, 1, 2, 650),
       design(12, 2, 3, 450, "pois"), design(16, 2, 2, c(600, 3000)), design(24, 1, 2, 540))
}
# A second judging set for the same centring (run "2026-12-03t"), fixed after the first judged
# it and before any result of its own: other d, m, sizes and a second population at d = 50.
small_vk_judge2_grid <- function() {
  list(design(50, 1, 2, 1000, pop = 2L), design(36, 1, 3, 720), design(20, 2, 3, 850), design(28, 1, 2, 600, "pois"),
       design(14, 2, 2, c(540, 2000)), design(44, 1, 2, 950))
}
# Designs that judged bench/near-tie-interval.R's conditional interval (2026-12-04), fixed
# before its results on them: other populations of the near-tie designs' kinds and three more.
near_tie_interval_judge_grid <- function() {
  list(design(12, 3, 3, 1000, pop = 4L), design(10, 2, 4, 1000, pop = 2L), design(12, 2, 3, 3000, shape = "tie", pop = 2L),
       design(12, 3, 5, 1000, pop = 2L), design(8, 2, 3, 1000, pop = 2L), design(10, 2, 3, 1000, shape = "tie"))
}
# Designs that judge the own near-tie's seen bias taken off a loss (2026-12-04, run "2026-12-04b"),
# fixed before any result: other populations, d, k, m and sizes.
own_tie_b_judge_grid <- function() {
  list(design(10, 2, 3, 1000, pop = 3L), design(12, 3, 4, 1000, pop = 5L), design(8, 2, 2, 2000, pop = 3L),
       design(12, 2, 3, 1000, "pois", pop = 3L), design(16, 4, 3, 1000, pop = 2L), design(6, 1, 3, 1000, pop = 2L))
}
# Designs that judge the pooled near-tie flag's multiplier recalibrated on 16 designs at 100
# samples (2026-12-04, run "2026-12-04d"), fixed before any result: other populations, d, k, m,
# a tie and Poisson columns.
near_tie_c_judge2_grid <- function() {
  list(design(12, 3, 3, 1000, pop = 6L), design(10, 2, 3, 1000, pop = 7L), design(8, 2, 4, 1000, pop = 3L),
       design(12, 2, 2, 1000, pop = 4L), design(6, 1, 2, 1000, pop = 3L), design(12, 3, 3, 1000, shape = "tie", pop = 5L),
       design(10, 2, 3, 2000, "pois", pop = 2L))
}
# Designs that judge the own near-tie's seen bias taken off mean matching's losses (2026-12-04,
# run "2026-12-04f"), fixed before any result: other populations, d, k, m, a tie and counts.
mean_b_judge_grid <- function() {
  list(design(10, 2, 3, 1000, pop = 11L), design(12, 3, 3, 1000, pop = 12L), design(8, 2, 2, 1000, pop = 13L),
       design(12, 2, 4, 1000, pop = 14L), design(10, 2, 3, 2000, "pois", pop = 15L),
       design(12, 3, 3, 1000, shape = "tie", pop = 16L))
}
# Designs that judge max_loss_change's interval from the candidate pairs (2026-12-04, run
# "2026-12-04g"), fixed before any result: other populations, 3-5 groups, d 6-12, a tie,
# counts and 3,000 rows.
change_judge_grid <- function() {
  list(design(12, 2, 5, 1000, pop = 21L), design(10, 2, 4, 1000, pop = 22L), design(12, 3, 3, 2000, pop = 23L),
       design(8, 2, 5, 1000, "pois", pop = 24L), design(12, 2, 4, 1000, shape = "tie", pop = 25L),
       design(6, 1, 3, 1000, pop = 26L), design(12, 3, 5, 3000, pop = 27L))
}
# Designs drawn fresh on 2026-12-05 to judge that session's changes, fixed before any result on
# them (other populations, d 6-12, k 1-3, 2-5 groups, unequal sizes, counts, ties). judge18's
# twelve were looked at (the package's cells) before the rules were fixed, so they joined the
# calibration; judge18b's twenty judged (run "2026-12-05a"), judge18c's twenty rule M2 (run
# "2026-12-05b"). judge19's twenty (pops 101-120) were drawn in the session after, fixed before
# any result on them, to judge rules V and W (runs "2026-12-05c-before" and "2026-12-05c");
# judge19b's twenty (pops 121-140) rule W2 (runs "2026-12-05d" and "2026-12-05d-w2").
# judge20's twenty (pops 141-160) judged rule Z and checked rule F (runs "2026-12-05f*"),
# judge21's twenty (pops 161-180) judged rule F (runs "2026-12-05g*"), judge22's twenty (pops
# 181-200) rule W3 (runs "2026-12-05h*"), judge23's (pops 201-220) rule W4 (runs "2026-12-05i*"),
# judge24's (pops 221-240) rule W5 (runs "2026-12-05j*"), each drawn after its rule was written down.
# judge34-35 (pops 421-460) judged rule M2s (runs "2026-12-05r*"), judge36-37 (pops 461-500) were
# drawn for rule L, which lost its calibration, and measured the package afresh ("2026-12-05s*").
judge28_grid <- function() {
  list(design(12, 2, 3, 2000, pop = 301L), design(10, 2, 2, 1000, pop = 302L), design(8, 1, 3, 2000, pop = 303L),
       design(12, 3, 2, 1000, pop = 304L), design(12, 1, 4, 2000, pop = 305L),
       design(10, 2, 3, c(1000, 3000, 1000), pop = 306L), design(12, 2, 3, 1000, "pois", pop = 307L),
       design(10, 1, 3, 2000, "pois", pop = 308L), design(12, 2, 3, 2000, shape = "tie", pop = 309L),
       design(8, 2, 2, 2000, shape = "tie", pop = 310L), design(12, 2, 4, 1000, pop = 311L),
       design(6, 1, 3, 1000, pop = 312L), design(12, 3, 3, 1000, pop = 313L), design(10, 1, 5, 2000, pop = 314L),
       design(8, 2, 3, 1000, pop = 315L), design(12, 1, 3, 2000, pop = 316L), design(10, 2, 4, 1000, "pois", pop = 317L),
       design(10, 2, 3, 1000, shape = "tie", pop = 318L), design(12, 2, 2, c(2000, 1000), pop = 319L),
       design(10, 3, 3, 1000, pop = 320L))
}
judge29_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 321L), design(10, 2, 3, 1000, pop = 322L), design(8, 1, 2, 1000, pop = 323L),
       design(12, 3, 2, 2000, pop = 324L), design(12, 1, 3, 1000, pop = 325L),
       design(10, 2, 4, c(2000, 1000, 1000, 1000), pop = 326L), design(12, 2, 2, 1000, "pois", pop = 327L),
       design(8, 2, 3, 2000, "pois", pop = 328L), design(12, 2, 4, 2000, shape = "tie", pop = 329L),
       design(10, 1, 2, 1000, shape = "tie", pop = 330L), design(12, 2, 5, 1000, pop = 331L),
       design(6, 1, 2, 1000, pop = 332L), design(12, 3, 4, 2000, pop = 333L), design(10, 1, 4, 2000, pop = 334L),
       design(8, 2, 4, 1000, pop = 335L), design(12, 1, 5, 1000, pop = 336L), design(10, 3, 2, 1000, "pois", pop = 337L),
       design(12, 3, 3, 2000, shape = "tie", pop = 338L), design(12, 2, 3, c(1000, 1000, 3000), pop = 339L),
       design(10, 2, 5, 2000, pop = 340L))
}
judge32_grid <- function() {
  list(design(12, 2, 3, 2000, pop = 381L), design(10, 2, 4, 1000, pop = 382L), design(8, 1, 2, 2000, pop = 383L),
       design(12, 3, 3, 1000, pop = 384L), design(12, 1, 5, 1000, pop = 385L),
       design(10, 2, 3, c(1000, 1000, 3000), pop = 386L), design(12, 2, 2, 1000, "pois", pop = 387L),
       design(10, 1, 4, 1000, "pois", pop = 388L), design(12, 2, 4, 1000, shape = "tie", pop = 389L),
       design(8, 2, 2, 1000, shape = "tie", pop = 390L), design(12, 2, 3, 1000, pop = 391L),
       design(6, 1, 5, 1000, pop = 392L), design(12, 3, 4, 1000, pop = 393L), design(10, 1, 2, 2000, pop = 394L),
       design(8, 2, 4, 1000, pop = 395L), design(12, 1, 4, 2000, pop = 396L), design(10, 2, 3, 1000, "pois", pop = 397L),
       design(10, 2, 3, 2000, shape = "tie", pop = 398L), design(12, 2, 3, c(2000, 1000, 1000), pop = 399L),
       design(10, 3, 5, 1000, pop = 400L))
}
judge33_grid <- function() {
  list(design(12, 2, 5, 1000, pop = 401L), design(10, 2, 3, 1000, pop = 402L), design(8, 1, 4, 2000, pop = 403L),
       design(12, 3, 2, 2000, pop = 404L), design(12, 1, 3, 2000, pop = 405L),
       design(10, 2, 4, c(1000, 3000, 1000, 1000), pop = 406L), design(12, 2, 3, 1000, "pois", pop = 407L),
       design(8, 2, 2, 1000, "pois", pop = 408L), design(12, 2, 3, 1000, shape = "tie", pop = 409L),
       design(10, 1, 4, 1000, shape = "tie", pop = 410L), design(12, 2, 4, 2000, pop = 411L),
       design(6, 1, 3, 1000, pop = 412L), design(12, 3, 3, 2000, pop = 413L), design(10, 1, 5, 1000, pop = 414L),
       design(8, 2, 3, 2000, pop = 415L), design(12, 1, 2, 1000, pop = 416L), design(10, 3, 4, 1000, "pois", pop = 417L),
       design(12, 3, 3, 1000, shape = "tie", pop = 418L), design(10, 2, 2, c(3000, 1000), pop = 419L),
       design(12, 2, 5, 2000, pop = 420L))
}
judge34_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 421L), design(10, 2, 2, 2000, pop = 422L), design(8, 1, 4, 1000, pop = 423L),
       design(12, 3, 4, 1000, pop = 424L), design(12, 1, 2, 2000, pop = 425L),
       design(10, 2, 4, c(1000, 1000, 3000, 1000), pop = 426L), design(12, 2, 4, 1000, "pois", pop = 427L),
       design(10, 1, 3, 2000, "pois", pop = 428L), design(12, 2, 2, 1000, shape = "tie", pop = 429L),
       design(8, 2, 3, 1000, shape = "tie", pop = 430L), design(12, 2, 3, 2000, pop = 431L),
       design(6, 1, 2, 1000, pop = 432L), design(12, 3, 5, 1000, pop = 433L), design(10, 1, 3, 1000, pop = 434L),
       design(8, 2, 5, 1000, pop = 435L), design(12, 1, 3, 1000, pop = 436L), design(10, 2, 2, 1000, "pois", pop = 437L),
       design(12, 2, 3, 1000, shape = "tie", pop = 438L), design(10, 2, 3, c(1000, 2000, 3000), pop = 439L),
       design(10, 3, 3, 2000, pop = 440L))
}
judge35_grid <- function() {
  list(design(12, 2, 4, 2000, pop = 441L), design(10, 2, 3, 1000, pop = 442L), design(8, 1, 3, 2000, pop = 443L),
       design(12, 3, 3, 1000, pop = 444L), design(12, 1, 4, 1000, pop = 445L),
       design(10, 2, 2, c(1000, 3000), pop = 446L), design(12, 2, 3, 2000, "pois", pop = 447L),
       design(8, 2, 4, 1000, "pois", pop = 448L), design(10, 2, 4, 1000, shape = "tie", pop = 449L),
       design(12, 1, 3, 1000, shape = "tie", pop = 450L), design(12, 2, 5, 1000, pop = 451L),
       design(6, 1, 3, 2000, pop = 452L), design(12, 3, 2, 1000, pop = 453L), design(10, 1, 4, 2000, pop = 454L),
       design(8, 2, 2, 2000, pop = 455L), design(12, 1, 5, 2000, pop = 456L), design(10, 3, 3, 1000, "pois", pop = 457L),
       design(10, 2, 3, 1000, shape = "tie", pop = 458L), design(12, 2, 4, c(3000, 1000, 1000, 1000), pop = 459L),
       design(10, 2, 5, 1000, pop = 460L))
}
judge36_grid <- function() {
  list(design(12, 2, 2, 1000, pop = 461L), design(10, 2, 3, 2000, pop = 462L), design(8, 1, 2, 1000, pop = 463L),
       design(12, 3, 3, 2000, pop = 464L), design(12, 1, 3, 1000, pop = 465L),
       design(10, 2, 3, c(2000, 1000, 1000), pop = 466L), design(12, 2, 2, 2000, "pois", pop = 467L),
       design(10, 1, 4, 1000, "pois", pop = 468L), design(12, 2, 3, 2000, shape = "tie", pop = 469L),
       design(8, 2, 4, 1000, shape = "tie", pop = 470L), design(12, 2, 4, 1000, pop = 471L),
       design(6, 1, 4, 2000, pop = 472L), design(12, 3, 2, 2000, pop = 473L), design(10, 1, 5, 1000, pop = 474L),
       design(8, 2, 3, 1000, pop = 475L), design(12, 1, 4, 1000, pop = 476L), design(10, 3, 3, 1000, "pois", pop = 477L),
       design(10, 2, 2, 1000, shape = "tie", pop = 478L), design(12, 2, 3, c(1000, 3000, 1000), pop = 479L),
       design(10, 2, 4, 2000, pop = 480L))
}
judge37_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 481L), design(10, 2, 5, 1000, pop = 482L), design(8, 1, 3, 1000, pop = 483L),
       design(12, 3, 4, 2000, pop = 484L), design(12, 1, 2, 1000, pop = 485L),
       design(10, 2, 4, c(1000, 2000, 1000, 1000), pop = 486L), design(12, 2, 3, 1000, "pois", pop = 487L),
       design(8, 2, 3, 2000, "pois", pop = 488L), design(12, 2, 4, 1000, shape = "tie", pop = 489L),
       design(10, 1, 3, 2000, shape = "tie", pop = 490L), design(12, 2, 2, 1000, pop = 491L),
       design(6, 1, 2, 2000, pop = 492L), design(12, 3, 3, 1000, pop = 493L), design(10, 1, 2, 1000, pop = 494L),
       design(8, 2, 2, 1000, pop = 495L), design(12, 1, 5, 1000, pop = 496L), design(10, 2, 3, 2000, "pois", pop = 497L),
       design(12, 3, 4, 1000, shape = "tie", pop = 498L), design(10, 2, 2, c(1000, 3000), pop = 499L),
       design(12, 2, 5, 1000, pop = 500L))
}
# Session of 2026-12-06, fifth: rule MO's judging set (pops 613-624), fixed before any result.
judge46_grid <- function() {
  list(design(50, 1, 3, 1300, pop = 625L), design(50, 1, 2, 1800, pop = 626L), design(40, 1, 4, 1200, "pois", pop = 627L),
       design(30, 1, 3, 1000, pop = 628L), design(24, 2, 3, 1300, pop = 629L), design(20, 2, 2, 1000, pop = 630L),
       design(16, 2, 5, 900, pop = 631L), design(12, 2, 3, 600, pop = 632L), design(30, 1, 2, c(900, 3000), pop = 633L),
       design(20, 1, 3, 700, shape = "tie", pop = 634L), design(8, 2, 3, 400, pop = 635L),
       design(12, 3, 3, 800, "pois", pop = 636L))
}
judge45_grid <- function() {
  list(design(8, 2, 4, 1000, pop = 613L), design(10, 2, 3, 1500, "pois", pop = 614L),
       design(12, 3, 4, 1000, shape = "tie", pop = 615L), design(12, 2, 5, 1200, pop = 616L),
       design(12, 3, 3, 2000, pop = 617L), design(16, 2, 4, 1000, pop = 618L), design(20, 2, 3, 1500, pop = 619L),
       design(20, 2, 4, 1200, "pois", pop = 620L), design(24, 2, 5, 1500, pop = 621L),
       design(16, 3, 3, 2000, shape = "tie", pop = 622L), design(30, 2, 4, 2000, pop = 623L),
       design(20, 3, 5, 1800, pop = 624L))
}
# Session of 2026-12-06, fifth: rule MB's judging set (pops 599-612), fixed before any result;
# run as a status measurement of min-max at 27-41 rows per direction (MB was not adopted).
judge44_grid <- function() {
  list(design(50, 1, 3, 1400, pop = 599L), design(50, 1, 2, 1600, pop = 600L), design(24, 2, 3, 1300, pop = 601L),
       design(20, 2, 4, 1000, pop = 602L), design(30, 1, 3, 1000, pop = 603L), design(16, 2, 3, 900, pop = 604L),
       design(12, 2, 5, 700, pop = 605L), design(40, 1, 3, 1200, "pois", pop = 606L), design(12, 3, 3, 1000, pop = 607L),
       design(12, 3, 2, 1000, "pois", pop = 608L), design(20, 3, 3, 1800, pop = 609L),
       design(24, 2, 2, c(1200, 3000), pop = 610L), design(12, 3, 4, 1100, shape = "tie", pop = 611L),
       design(30, 2, 3, 1800, pop = 612L))
}
# Session of 2026-12-06, fifth: the judging set of the band of 20 to 25 rows per direction (pops
# 585-596) and two controls at 30-32 (pops 597-598), fixed before any result.
judge43_grid <- function() {
  list(design(50, 1, 2, 1000, pop = 585L), design(50, 1, 3, 1000, pop = 586L), design(50, 1, 5, 1000, pop = 587L),
       design(50, 1, 4, 1000, "pois", pop = 588L), design(30, 1, 3, 600, pop = 589L), design(40, 1, 2, 900, pop = 590L),
       design(24, 2, 3, 1000, pop = 591L), design(16, 2, 2, 650, pop = 592L), design(8, 2, 3, 250, pop = 593L),
       design(12, 1, 2, c(230, 2000), pop = 594L), design(30, 1, 2, c(620, 3000), "pois", pop = 595L),
       design(50, 1, 3, 1100, shape = "tie", pop = 596L), design(50, 1, 3, 1500, pop = 597L),
       design(24, 2, 3, 1400, pop = 598L))
}
# Session of 2026-12-06, fourth: the well-behaved status set (20 designs drawn fresh, pops
# 565-584), fixed before any result of it.
judge42_grid <- function() {
  list(design(4, 1, 2, 1000, pop = 565L), design(6, 1, 3, 2000, "pois", pop = 566L), design(8, 2, 2, 1000, pop = 567L),
       design(8, 2, 4, 1000, "pois", pop = 568L), design(10, 2, 3, 3000, pop = 569L), design(10, 2, 5, 1000, "pois", pop = 570L),
       design(12, 3, 2, 2000, "pois", pop = 571L), design(12, 3, 3, 1000, pop = 572L), design(12, 1, 4, 1000, pop = 573L),
       design(6, 1, 2, c(1000, 3000), "pois", pop = 574L), design(12, 2, 3, c(3000, 1000, 1000), pop = 575L),
       design(10, 1, 5, 2000, pop = 576L), design(8, 2, 3, 1000, shape = "tie", pop = 577L),
       design(12, 3, 2, 1000, shape = "tie", pop = 578L), design(6, 1, 4, 2000, shape = "tie", pop = 579L),
       design(10, 2, 2, 3000, shape = "tie", pop = 580L), design(8, 2, 2, 1000, "pois", shape = "alike", pop = 581L),
       design(12, 3, 3, 2000, shape = "alike", pop = 582L), design(6, 1, 4, 1000, "pois", shape = "alike", pop = 583L),
       design(10, 2, 3, 1000, shape = "alike", pop = 584L))
}
# Session of 2026-12-06, third: rule M3's judging set (16 designs drawn fresh, pops 549-564), fixed
# before any result of it: 8 alike designs with 3-5 groups (6 Poisson, 2 Gaussian) and 8 designs
# with 3-5 distinct or tied groups.
judge41_grid <- function() {
  list(design(8, 1, 3, 1000, "pois", shape = "alike", pop = 549L), design(12, 2, 5, 2000, "pois", shape = "alike", pop = 550L),
       design(10, 2, 4, 1000, "pois", shape = "alike", pop = 551L), design(6, 1, 5, 1000, "pois", shape = "alike", pop = 552L),
       design(12, 3, 4, 1000, shape = "alike", pop = 553L), design(8, 2, 3, 2000, shape = "alike", pop = 554L),
       design(10, 1, 5, 3000, "pois", shape = "alike", pop = 555L), design(12, 1, 3, 1000, "pois", shape = "alike", pop = 556L),
       design(12, 2, 5, 1000, pop = 557L), design(10, 1, 4, 1000, "pois", pop = 558L), design(8, 2, 5, 1000, "pois", pop = 559L),
       design(12, 3, 4, 2000, pop = 560L), design(6, 1, 5, 2000, pop = 561L),
       design(10, 2, 3, c(1000, 3000, 1000), "pois", pop = 562L), design(12, 1, 4, 1000, shape = "tie", pop = 563L),
       design(8, 2, 4, 1000, pop = 564L))
}
# Session of 2026-12-06, third: the two-step gap rule's judging set (16 designs drawn fresh, pops
# 533-548), fixed before any result of it: 8 alike designs with 3-5 groups (6 Poisson, 2 Gaussian)
# and 8 designs with 3-5 distinct or tied groups.
judge40_grid <- function() {
  list(design(10, 1, 3, 1000, "pois", shape = "alike", pop = 533L), design(12, 2, 4, 1000, "pois", shape = "alike", pop = 534L),
       design(8, 1, 5, 2000, "pois", shape = "alike", pop = 535L), design(12, 2, 3, 2000, "pois", shape = "alike", pop = 536L),
       design(16, 3, 5, 1000, "pois", shape = "alike", pop = 537L), design(10, 2, 3, 1000, shape = "alike", pop = 538L),
       design(12, 1, 5, 1000, shape = "alike", pop = 539L), design(6, 1, 4, 3000, "pois", shape = "alike", pop = 540L),
       design(10, 1, 3, 1000, pop = 541L), design(12, 2, 4, 1000, "pois", pop = 542L), design(8, 2, 5, 2000, pop = 543L),
       design(12, 3, 3, 1000, "pois", pop = 544L), design(10, 2, 4, c(1000, 2000, 1000, 3000), pop = 545L),
       design(6, 1, 5, 1000, pop = 546L), design(12, 2, 3, 1000, shape = "tie", pop = 547L),
       design(8, 1, 4, 2000, "pois", pop = 548L))
}
# Session of 2026-12-06, second: rule G2's judging set (16 designs drawn fresh, pops 517-532): 8
# alike Poisson designs with 3-5 groups, 8 designs with 3-5 distinct or tied groups.
judge39_grid <- function() {
  list(design(12, 1, 3, 1000, "pois", shape = "alike", pop = 517L), design(12, 2, 5, 1000, "pois", shape = "alike", pop = 518L),
       design(8, 1, 4, 2000, "pois", shape = "alike", pop = 519L), design(16, 2, 3, 1000, "pois", shape = "alike", pop = 520L),
       design(10, 3, 5, 1000, "pois", shape = "alike", pop = 521L), design(20, 2, 4, 1000, "pois", shape = "alike", pop = 522L),
       design(12, 3, 3, 3000, "pois", shape = "alike", pop = 523L), design(8, 2, 5, 2000, "pois", shape = "alike", pop = 524L),
       design(10, 2, 3, 1000, pop = 525L), design(12, 1, 5, 1000, pop = 526L), design(8, 2, 4, 2000, pop = 527L),
       design(6, 1, 3, 1000, "pois", pop = 528L), design(12, 2, 4, 1000, "pois", pop = 529L),
       design(10, 2, 5, 2000, "pois", pop = 530L), design(12, 3, 3, c(1000, 2000, 1000), pop = 531L),
       design(8, 1, 3, 1000, shape = "tie", pop = 532L))
}
# Session of 2026-12-06: rule S's second judging set (alike designs, isotropic after scaling, and
# designs beside the rule's domain), fixed before any result of it.
judge38_grid <- function() {
  list(design(4, 1, 2, 1000, shape = "alike", pop = 501L), design(4, 1, 3, 2000, shape = "alike", pop = 502L),
       design(4, 1, 5, 1000, shape = "alike", pop = 503L), design(6, 1, 2, 1000, shape = "alike", pop = 504L),
       design(6, 2, 3, 1000, shape = "alike", pop = 505L), design(8, 1, 2, 2000, shape = "alike", pop = 506L),
       design(8, 2, 4, 1000, shape = "alike", pop = 507L), design(10, 2, 3, 1000, shape = "alike", pop = 508L),
       design(12, 1, 2, 1000, shape = "alike", pop = 509L), design(12, 3, 3, 1000, shape = "alike", pop = 510L),
       design(8, 2, 3, 1000, "pois", shape = "alike", pop = 511L),
       design(12, 2, 2, 1000, "pois", shape = "alike", pop = 512L),
       design(4, 1, 3, 300, shape = "alike", pop = 513L), design(12, 1, 2, 300, shape = "alike", pop = 514L),
       design(8, 1, 3, 1000, pop = 515L), design(10, 2, 3, 1000, shape = "tie", pop = 516L))
}
judge30_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 341L), design(10, 2, 2, 2000, pop = 342L), design(8, 1, 3, 1000, pop = 343L),
       design(12, 3, 2, 1000, pop = 344L), design(12, 1, 4, 1000, pop = 345L),
       design(10, 2, 3, c(3000, 1000, 1000), pop = 346L), design(12, 2, 3, 2000, "pois", pop = 347L),
       design(10, 1, 2, 1000, "pois", pop = 348L), design(12, 2, 3, 1000, shape = "tie", pop = 349L),
       design(8, 2, 3, 1000, shape = "tie", pop = 350L), design(12, 2, 5, 2000, pop = 351L),
       design(6, 1, 4, 1000, pop = 352L), design(12, 3, 3, 2000, pop = 353L), design(10, 1, 3, 1000, pop = 354L),
       design(8, 2, 2, 1000, pop = 355L), design(12, 1, 2, 2000, pop = 356L), design(10, 2, 5, 1000, "pois", pop = 357L),
       design(10, 2, 2, 2000, shape = "tie", pop = 358L), design(12, 2, 4, c(1000, 2000, 1000, 3000), pop = 359L),
       design(10, 3, 4, 1000, pop = 360L))
}
judge31_grid <- function() {
  list(design(12, 2, 4, 1000, pop = 361L), design(10, 2, 3, 2000, pop = 362L), design(8, 1, 5, 1000, pop = 363L),
       design(12, 3, 3, 1000, pop = 364L), design(12, 1, 2, 1000, pop = 365L),
       design(10, 2, 2, c(1000, 3000), pop = 366L), design(12, 2, 4, 1000, "pois", pop = 367L),
       design(8, 2, 3, 1000, "pois", pop = 368L), design(12, 2, 2, 2000, shape = "tie", pop = 369L),
       design(10, 1, 3, 1000, shape = "tie", pop = 370L), design(12, 2, 3, 2000, pop = 371L),
       design(6, 1, 3, 2000, pop = 372L), design(12, 3, 5, 1000, pop = 373L), design(10, 1, 4, 1000, pop = 374L),
       design(8, 2, 5, 2000, pop = 375L), design(12, 1, 3, 1000, pop = 376L), design(10, 3, 3, 2000, "pois", pop = 377L),
       design(12, 3, 4, 1000, shape = "tie", pop = 378L), design(10, 2, 3, c(1000, 2000, 2000), pop = 379L),
       design(12, 2, 2, 1000, pop = 380L))
}
judge26_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 261L), design(10, 2, 2, 1000, pop = 262L), design(8, 1, 4, 2000, pop = 263L),
       design(12, 3, 2, 1000, pop = 264L), design(12, 1, 3, 1000, pop = 265L),
       design(10, 2, 3, c(1000, 2000, 1000), pop = 266L), design(12, 2, 2, 2000, "pois", pop = 267L),
       design(10, 2, 3, 1000, "pois", pop = 268L), design(12, 2, 4, 1000, shape = "tie", pop = 269L),
       design(8, 2, 3, 2000, shape = "tie", pop = 270L), design(12, 2, 3, 2000, pop = 271L),
       design(6, 1, 2, 2000, pop = 272L), design(12, 3, 4, 1000, pop = 273L), design(10, 1, 3, 2000, pop = 274L),
       design(8, 2, 4, 1000, pop = 275L), design(12, 1, 5, 2000, pop = 276L), design(10, 3, 2, 2000, "pois", pop = 277L),
       design(10, 1, 3, 1000, shape = "tie", pop = 278L), design(12, 2, 2, c(3000, 1000), pop = 279L),
       design(10, 2, 5, 1000, pop = 280L))
}
judge27_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 281L), design(10, 2, 3, 2000, pop = 282L), design(8, 1, 2, 2000, pop = 283L),
       design(12, 3, 3, 2000, pop = 284L), design(12, 1, 2, 1000, pop = 285L),
       design(10, 2, 4, c(1000, 1000, 2000, 3000), pop = 286L), design(12, 2, 3, 2000, "pois", pop = 287L),
       design(8, 1, 3, 1000, "pois", pop = 288L), design(12, 3, 3, 1000, shape = "tie", pop = 289L),
       design(10, 2, 2, 1000, shape = "tie", pop = 290L), design(12, 2, 5, 2000, pop = 291L),
       design(6, 1, 4, 1000, pop = 292L), design(12, 2, 4, 2000, pop = 293L), design(10, 1, 2, 2000, pop = 294L),
       design(8, 2, 3, 1000, pop = 295L), design(12, 1, 4, 1000, pop = 296L), design(12, 2, 3, 1000, "pois", pop = 297L),
       design(12, 2, 2, 1000, shape = "tie", pop = 298L), design(10, 2, 3, c(2000, 1000, 1000), pop = 299L),
       design(10, 3, 4, 1000, pop = 300L))
}
judge25_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 241L), design(10, 2, 2, 2000, pop = 242L), design(8, 1, 3, 1000, pop = 243L),
       design(12, 3, 2, 2000, pop = 244L), design(12, 1, 4, 1000, pop = 245L),
       design(10, 2, 3, c(2000, 1000, 3000), pop = 246L), design(12, 2, 3, 1000, "pois", pop = 247L),
       design(10, 1, 2, 1000, "pois", pop = 248L), design(12, 2, 3, 1000, shape = "tie", pop = 249L),
       design(10, 2, 3, 1000, shape = "tie", pop = 250L), design(12, 2, 4, 1000, pop = 251L),
       design(6, 1, 3, 2000, pop = 252L), design(12, 3, 3, 1000, pop = 253L), design(10, 1, 4, 1000, pop = 254L),
       design(8, 2, 2, 2000, pop = 255L), design(12, 1, 3, 1000, pop = 256L), design(10, 2, 4, 2000, "pois", pop = 257L),
       design(8, 1, 2, 1000, shape = "tie", pop = 258L), design(12, 2, 2, c(1000, 2000), pop = 259L),
       design(10, 3, 3, 2000, pop = 260L))
}
judge24_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 221L), design(10, 2, 3, 2000, pop = 222L), design(8, 1, 2, 1000, pop = 223L),
       design(12, 3, 3, 1000, pop = 224L), design(12, 1, 3, 2000, pop = 225L),
       design(10, 2, 4, c(2000, 1000, 1000, 3000), pop = 226L), design(12, 2, 2, 1000, "pois", pop = 227L),
       design(10, 2, 3, 1000, "pois", pop = 228L), design(12, 2, 4, 1000, shape = "tie", pop = 229L),
       design(10, 1, 3, 2000, shape = "tie", pop = 230L), design(12, 2, 5, 1000, pop = 231L),
       design(6, 1, 2, 2000, pop = 232L), design(12, 3, 4, 1000, pop = 233L), design(10, 1, 3, 1000, pop = 234L),
       design(8, 2, 4, 2000, pop = 235L), design(12, 1, 4, 2000, pop = 236L), design(10, 3, 2, 1000, "pois", pop = 237L),
       design(8, 2, 3, 1000, shape = "tie", pop = 238L), design(12, 2, 2, c(1000, 3000), pop = 239L),
       design(10, 2, 5, 1000, pop = 240L))
}
judge23_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 201L), design(10, 2, 2, 1000, pop = 202L), design(8, 1, 3, 2000, pop = 203L),
       design(12, 3, 2, 2000, pop = 204L), design(12, 1, 4, 1000, pop = 205L),
       design(10, 2, 3, c(1000, 3000, 2000), pop = 206L), design(12, 2, 3, 1000, "pois", pop = 207L),
       design(10, 1, 2, 2000, "pois", pop = 208L), design(12, 2, 3, 1000, shape = "tie", pop = 209L),
       design(10, 2, 2, 2000, shape = "tie", pop = 210L), design(12, 2, 4, 1000, pop = 211L),
       design(6, 1, 3, 1000, pop = 212L), design(12, 3, 3, 2000, pop = 213L), design(10, 1, 4, 2000, pop = 214L),
       design(8, 2, 2, 3000, pop = 215L), design(12, 1, 5, 1000, pop = 216L), design(10, 2, 4, 1000, "pois", pop = 217L),
       design(8, 1, 3, 1000, shape = "tie", pop = 218L), design(12, 2, 3, c(3000, 1000, 1000), pop = 219L),
       design(10, 3, 3, 1000, pop = 220L))
}
judge22_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 181L), design(10, 2, 2, 2000, pop = 182L), design(8, 1, 4, 1000, pop = 183L),
       design(12, 3, 2, 1000, pop = 184L), design(12, 1, 3, 2000, pop = 185L),
       design(10, 2, 4, c(1000, 2000, 3000, 1000), pop = 186L), design(12, 2, 2, 1000, "pois", pop = 187L),
       design(10, 2, 3, 2000, "pois", pop = 188L), design(12, 3, 3, 1000, shape = "tie", pop = 189L),
       design(8, 2, 2, 1000, shape = "tie", pop = 190L), design(12, 2, 4, 2000, pop = 191L),
       design(6, 1, 2, 1000, pop = 192L), design(12, 3, 3, 3000, pop = 193L), design(10, 1, 5, 1000, pop = 194L),
       design(8, 2, 3, 2000, pop = 195L), design(12, 2, 2, 3000, pop = 196L), design(10, 2, 3, 1000, "pois", pop = 197L),
       design(12, 2, 3, 1000, shape = "tie", pop = 198L), design(10, 3, 2, c(3000, 1000), pop = 199L),
       design(12, 1, 2, 2000, pop = 200L))
}
judge21_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 161L), design(10, 2, 4, 2000, pop = 162L), design(8, 1, 3, 1000, pop = 163L),
       design(12, 3, 3, 1000, pop = 164L), design(12, 1, 5, 1000, pop = 165L),
       design(10, 2, 3, c(3000, 1000, 2000), pop = 166L), design(12, 2, 4, 1000, "pois", pop = 167L),
       design(10, 2, 2, 1000, "pois", pop = 168L), design(12, 2, 3, 2000, shape = "tie", pop = 169L),
       design(10, 1, 3, 1000, shape = "tie", pop = 170L), design(12, 2, 5, 2000, pop = 171L),
       design(6, 1, 3, 2000, pop = 172L), design(12, 3, 2, 2000, pop = 173L), design(10, 2, 4, 1000, pop = 174L),
       design(8, 2, 3, 1000, pop = 175L), design(12, 1, 3, 3000, pop = 176L), design(10, 3, 3, 1000, "pois", pop = 177L),
       design(12, 3, 4, 2000, pop = 178L), design(8, 1, 4, c(1000, 3000, 1000, 2000), pop = 179L),
       design(10, 2, 3, 1000, pop = 180L))
}
judge20_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 141L), design(10, 2, 4, 1000, pop = 142L), design(8, 1, 3, 2000, pop = 143L),
       design(12, 3, 3, 2000, pop = 144L), design(12, 1, 4, 1000, pop = 145L),
       design(10, 2, 3, c(2000, 1000, 3000), pop = 146L), design(12, 2, 3, 1000, "pois", pop = 147L),
       design(10, 1, 2, 1000, "pois", pop = 148L), design(12, 2, 3, 1000, shape = "tie", pop = 149L),
       design(10, 2, 4, 2000, shape = "tie", pop = 150L), design(12, 2, 5, 1000, pop = 151L),
       design(6, 1, 3, 1000, pop = 152L), design(12, 3, 2, 1000, pop = 153L), design(10, 2, 5, 2000, pop = 154L),
       design(8, 2, 3, 3000, pop = 155L), design(12, 1, 3, 2000, pop = 156L), design(10, 3, 4, 1000, "pois", pop = 157L),
       design(12, 3, 4, 1000, shape = "tie", pop = 158L), design(10, 2, 3, c(1000, 1000, 3000), pop = 159L),
       design(8, 2, 2, 2000, pop = 160L))
}
judge19b_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 121L), design(10, 2, 3, 2000, pop = 122L), design(8, 2, 4, 1000, pop = 123L),
       design(12, 3, 3, 1000, pop = 124L), design(12, 1, 3, 1000, pop = 125L),
       design(10, 2, 4, c(1000, 2000, 1000, 3000), pop = 126L), design(12, 2, 3, 1000, "pois", pop = 127L),
       design(8, 1, 2, 2000, "pois", pop = 128L), design(12, 2, 4, 1000, shape = "tie", pop = 129L),
       design(10, 3, 3, 2000, shape = "tie", pop = 130L), design(12, 2, 5, 2000, pop = 131L),
       design(6, 1, 3, 3000, pop = 132L), design(12, 3, 2, 2000, pop = 133L), design(10, 2, 5, 1000, pop = 134L),
       design(8, 2, 4, 2000, pop = 135L), design(12, 1, 5, 1000, pop = 136L), design(12, 2, 3, 2000, "pois", pop = 137L),
       design(12, 3, 3, 1000, shape = "tie", pop = 138L), design(10, 1, 2, c(1000, 3000), pop = 139L),
       design(12, 2, 4, 1000, pop = 140L))
}
judge19_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 101L), design(10, 2, 2, 2000, pop = 102L), design(8, 1, 3, 1000, pop = 103L),
       design(12, 3, 2, 1000, pop = 104L), design(12, 1, 4, 2000, pop = 105L),
       design(10, 2, 3, c(1000, 3000, 2000), pop = 106L), design(12, 2, 2, 1000, "pois", pop = 107L),
       design(10, 2, 4, 1000, "pois", pop = 108L), design(12, 3, 3, 1000, shape = "tie", pop = 109L),
       design(8, 2, 2, 2000, shape = "tie", pop = 110L), design(12, 2, 5, 1000, pop = 111L),
       design(6, 1, 4, 1000, pop = 112L), design(12, 3, 4, 2000, pop = 113L), design(10, 1, 3, 3000, pop = 114L),
       design(8, 2, 3, 1000, pop = 115L), design(12, 2, 2, 3000, pop = 116L), design(10, 3, 3, 1000, "pois", pop = 117L),
       design(10, 2, 3, 1000, shape = "tie", pop = 118L), design(12, 1, 2, c(3000, 1000), pop = 119L),
       design(12, 2, 3, 2000, pop = 120L))
}
judge18c_grid <- function() {
  list(design(12, 2, 3, 1000, pop = 81L), design(10, 2, 2, 1000, pop = 82L), design(8, 1, 4, 1000, pop = 83L),
       design(12, 3, 3, 2000, pop = 84L), design(12, 1, 2, 1000, pop = 85L),
       design(10, 3, 3, c(1000, 2000, 3000), pop = 86L), design(12, 2, 3, 1000, "pois", pop = 87L),
       design(8, 2, 3, 2000, "pois", pop = 88L), design(12, 2, 3, 1000, shape = "tie", pop = 89L),
       design(10, 2, 4, 1000, shape = "tie", pop = 90L), design(12, 3, 2, 2000, pop = 91L),
       design(6, 1, 2, 3000, pop = 92L), design(12, 2, 5, 1000, pop = 93L), design(10, 2, 3, 1000, pop = 94L),
       design(12, 3, 4, 1000, pop = 95L), design(8, 2, 2, 3000, pop = 96L), design(12, 1, 3, 2000, "pois", pop = 97L),
       design(12, 2, 2, 1000, shape = "tie", pop = 98L), design(10, 2, 2, c(1000, 3000), pop = 99L),
       design(12, 2, 4, 1000, pop = 100L))
}
judge18b_grid <- function() {
  list(design(12, 2, 2, 1000, pop = 61L), design(10, 2, 3, 1000, pop = 62L), design(8, 2, 4, 2000, pop = 63L),
       design(12, 3, 4, 1000, pop = 64L), design(12, 1, 3, 1000, pop = 65L), design(10, 3, 2, c(1000, 3000), pop = 66L),
       design(12, 2, 4, 1000, "pois", pop = 67L), design(10, 2, 2, 1000, "pois", pop = 68L),
       design(12, 3, 3, 2000, shape = "tie", pop = 69L), design(8, 2, 3, 1000, shape = "tie", pop = 70L),
       design(12, 2, 2, 3000, pop = 71L), design(6, 1, 3, 1000, pop = 72L),
       design(12, 3, 2, 1000, pop = 73L), design(10, 1, 2, 2000, pop = 74L), design(12, 2, 3, 1000, pop = 75L),
       design(8, 2, 5, 1000, pop = 76L), design(12, 3, 3, 1000, "pois", pop = 77L),
       design(12, 2, 2, 1000, shape = "tie", pop = 78L),
       design(10, 2, 3, c(1000, 3000, 1000), pop = 79L), design(12, 1, 4, 1000, pop = 80L))
}
judge18_grid <- function() {
  list(design(6, 1, 2, 1000, pop = 41L), design(8, 2, 3, 1000, pop = 42L), design(10, 2, 4, 1000, pop = 43L),
       design(12, 3, 3, 1000, pop = 44L), design(12, 2, 5, 1000, pop = 45L), design(10, 2, 3, c(1000, 2000, 3000), pop = 46L),
       design(8, 1, 3, 1000, "pois", pop = 47L), design(12, 2, 3, 2000, "pois", pop = 48L),
       design(10, 3, 2, 1000, shape = "tie", pop = 49L), design(12, 2, 3, 1000, shape = "tie", pop = 50L),
       design(12, 3, 2, 3000, pop = 51L), design(8, 2, 2, 1000, pop = 52L))
}
grid <- switch(which_designs, full = full_grid(), reduced = reduced_grid(), own_tie_judge = own_tie_judge_grid(),
               near_tie_judge = near_tie_judge_grid(), small_group_judge = small_group_judge_grid(),
               small_vk_judge = small_vk_judge_grid(), small_vk_judge2 = small_vk_judge2_grid(),
               near_tie_interval_judge = near_tie_interval_judge_grid(), own_tie_b_judge = own_tie_b_judge_grid(),
               near_tie_c_judge2 = near_tie_c_judge2_grid(), mean_b_judge = mean_b_judge_grid(),
               change_judge = change_judge_grid(), judge18 = judge18_grid(), judge18b = judge18b_grid(),
               judge18c = judge18c_grid(), judge19 = judge19_grid(), judge19b = judge19b_grid(),
               judge20 = judge20_grid(), judge21 = judge21_grid(), judge22 = judge22_grid(),
               judge23 = judge23_grid(), judge24 = judge24_grid(), judge25 = judge25_grid(),
               judge26 = judge26_grid(), judge27 = judge27_grid(), judge28 = judge28_grid(), judge29 = judge29_grid(),
               judge30 = judge30_grid(), judge31 = judge31_grid(), judge32 = judge32_grid(), judge33 = judge33_grid(),
               judge34 = judge34_grid(), judge35 = judge35_grid(), judge36 = judge36_grid(), judge37 = judge37_grid(), judge38 = judge38_grid(), judge39 = judge39_grid(), judge40 = judge40_grid(), judge41 = judge41_grid(),
               judge42 = judge42_grid(), judge43 = judge43_grid(), judge44 = judge44_grid(), judge45 = judge45_grid(), judge46 = judge46_grid(),
               wellbehaved = Filter(function(x) x$dist %in% c("gauss", "pois") && min(x$n) >= 1000 && x$d <= 12,
                                    full_grid()),
               {
                 want <- strsplit(which_designs, ",")[[1L]]
                 all <- c(full_grid(), reduced_grid(), own_tie_judge_grid(), near_tie_judge_grid(), small_group_judge_grid(),
                          small_vk_judge_grid(), small_vk_judge2_grid(), near_tie_interval_judge_grid(),
                          own_tie_b_judge_grid(), near_tie_c_judge2_grid(), mean_b_judge_grid(), change_judge_grid(),
                          judge18_grid(), judge18b_grid(), judge18c_grid(), judge19_grid(), judge19b_grid(),
                          judge20_grid(), judge21_grid(), judge22_grid(), judge23_grid(),
                          judge24_grid(), judge25_grid(), judge26_grid(), judge27_grid(),
                          judge28_grid(), judge29_grid(), judge30_grid(), judge31_grid(),
                          judge32_grid(), judge33_grid(), judge34_grid(), judge35_grid(),
                          judge36_grid(), judge37_grid(), judge38_grid(), judge39_grid(), judge40_grid(), judge41_grid(), judge42_grid(),
                          judge43_grid(), judge44_grid(), judge45_grid(), judge46_grid())
                 all <- all[!duplicated(vapply(all, `[[`, "", "name"))]
                 all[vapply(all, `[[`, "", "name") %in% want]
               })
grid <- grid[seq_along(grid) %% shard[2L] == shard[1L] %% shard[2L]]
well_behaved <- function(x) x$dist %in% c("gauss", "pois") && min(x$n) >= 1000 && x$d <= 12

# ---- populations ----------------------------------------------------------------------------
rot <- function(d, strength) qr.Q(qr(diag(d) + strength * matrix(rnorm(d * d), d)))
population <- function(x) {
  d <- x$d
  k <- x$k
  groups <- lapply(seq_len(x$m), function(g) {
    same <- x$shape == "alike"
    gg <- if (same) 1 else g
    rate <- 2.5 * (0.8 + 0.5 * (gg - 1) / max(x$m - 1, 1))
    ev <- 4 * exp(-rate * seq(0, 1, length.out = d))
    if (x$shape == "tie" && g == 1L) ev[k + 1L] <- ev[k] * 0.99
    R <- if (same || g == 1L) diag(d) else rot(d, 0.6)
    mu <- if (same || g == 1L) rep(0, d) else rnorm(d, 0, 0.5)
    if (x$dist == "pois") {
      A <- diag(d)
      A[sample(d * d, ceiling(0.15 * d * d))] <- 1
      lam <- seq(4, 0.3, length.out = d) * (if (same) 1 else 0.8 + 0.4 * (g - 1) / max(x$m - 1, 1))
      return(list(A = A, lam = lam, mean = drop(A %*% lam), cov = A %*% (lam * t(A))))
    }
    L <- R %*% diag(sqrt(ev))
    list(L = L, mean = mu, cov = tcrossprod(L))
  })
  if (x$shape == "alike") groups <- rep(groups[1L], x$m)
  names(groups) <- letters[seq_len(x$m)]
  groups
}
draw_group <- function(p, n, dist, d) {
  if (dist == "pois") {
    y <- matrix(rpois(n * d, rep(p$lam, each = n)), n)
    return(y %*% t(p$A))
  }
  z <- switch(dist,
              gauss = matrix(rnorm(n * d), n),
              t5 = matrix(rnorm(n * d), n) * sqrt(3 / stats::rchisq(n, 5)),
              t3 = matrix(rnorm(n * d), n) * sqrt(1 / stats::rchisq(n, 3)),
              lnorm = (exp(0.8 * matrix(rnorm(n * d), n)) - exp(0.32)) / sqrt((exp(0.64) - 1) * exp(0.64)))
  sweep(z %*% t(p$L), 2L, p$mean, `+`)
}
truth_of <- function(pop, x) {
  # about a million rows in the design's proportions, whole (new_group_moments() takes rows)
  w <- x$n * max(1, round(1e6 / sum(x$n)))
  tm <- new_group_moments(n = stats::setNames(w, names(pop)), mean = sapply(pop, `[[`, "mean"),
                          scatter = Map(function(p, ww) ww * p$cov, pop, w), colnames = paste0("x", seq_len(x$d)))
  a <- fair_audit(tm, k = x$k, methods = methods, replicates = 0)
  # (na.rm: a method not fitted at the population, mean matching with m - 1 >= d, has NA errors)
  zero <- 1e-8 * max(a$groups_table$error, na.rm = TRUE)
  snap <- function(v) ifelse(is.finite(v) & abs(v) < zero, 0, v)
  tab <- a$table
  gt <- a$groups_table
  std_max <- tab$max_loss[tab$method == "standard"]
  out <- list()
  for (meth in methods) {
    r <- tab[tab$method == meth, ]
    # standard PCA's price is 0 by definition (no interval is printed for it)
    for (q in setdiff(c("max_loss", "min_loss", "loss_gap", "loss_ratio", "max_error", "error_gap", "var_kept", "price"),
                      if (meth == "standard") "price")) {
      v <- snap(r[[q]])
      # a loss gap 0 to the solvers' precision makes the ratio 1 (the population's min-max
      # ratio read 1 + 8e-9 beside a gap snapped to 0, and samples' intervals [1, 1 + 6e-9]
      # counted as misses until 2026-12-05)
      if (q == "loss_ratio" && isTRUE(snap(r$loss_gap) == 0)) v <- 1
      out[[length(out) + 1L]] <- data.frame(method = meth, term = q, group = NA_character_, truth = v)
    }
    out[[length(out) + 1L]] <- data.frame(method = meth, term = "max_loss_change", group = NA_character_,
                                          truth = snap(r$max_loss - std_max))
    g <- gt[gt$method == meth, ]
    for (q in c("error", "loss")) {
      out[[length(out) + 1L]] <- data.frame(method = meth, term = q, group = g$group, truth = snap(g[[q]]))
    }
  }
  do.call(rbind, out)
}

# ---- bias / sd of the replicates (FAIRPROJ_BENCH_DIAG) -------------------------------------------
captured <- new.env()
if (diag_on) {
  suppressMessages(trace("fp_audit_group_intervals", where = asNamespace("fairproj"), print = FALSE,
                         tracer = bquote(assign("last", list(gtab = gtab, dr = dr, methods = methods, ks = ks),
                                                envir = .(captured)))))
}
bias_z <- function(reps, est) {
  reps <- reps[is.finite(reps)]
  if (length(reps) < 10L || !is.finite(est) || !(stats::sd(reps) > 0)) return(NA_real_)
  (mean(reps) - est) / stats::sd(reps)
}
diag_of <- function(cap, iv) {
  gt <- cap$gtab
  dr <- cap$dr
  out <- data.frame(z_own = rep(NA_real_, nrow(iv)), z_method = NA_real_, switch = NA_real_)
  for (a in seq_along(cap$methods)) {
    meth <- cap$methods[a]
    if (meth == "minmax") {
      # `switch`: the share of replicates whose active set (the groups with a loss within 1% of
      # the largest) differs from the sample's (session of 2026-12-07, seventh)
      rows <- which(gt$method == meth & gt$k == cap$ks[1L])
      act <- function(l) {
        if (!all(is.finite(l))) return(NA_character_)
        paste(which(l >= max(l) - 0.01 * max(abs(l), 1e-12)), collapse = ",")
      }
      sr <- apply(matrix(dr$G[, a, 1L, seq_along(rows), 2L], ncol = length(rows)), 1L, act)
      s0 <- act(gt$loss[rows])
      out$switch[iv$method == meth] <- if (is.na(s0) || all(is.na(sr))) NA_real_ else mean(sr != s0, na.rm = TRUE)
    }
    zs <- numeric(0)
    for (i in which(gt$method == meth & gt$k == cap$ks[1L])) {
      g <- match(gt$group[i], unique(gt$group))
      for (q in 1:2) {
        z <- bias_z(dr$G[, a, 1L, g, q], gt[[c("error", "loss")[q]]][i])
        zs <- c(zs, z)
        out$z_own[iv$method == meth & iv$term == c("error", "loss")[q] & iv$group %in% gt$group[i]] <- z
      }
    }
    vk <- iv$estimate[iv$method == meth & iv$term == "var_kept"]
    if (length(vk)) {
      z <- bias_z(dr$Vk[, a, 1L], vk[1L])
      zs <- c(zs, z)
      out$z_own[iv$method == meth & iv$term == "var_kept"] <- z
    }
    out$z_method[iv$method == meth] <- if (any(is.finite(zs))) max(abs(zs), na.rm = TRUE) else NA_real_
  }
  out
}

# ---- near-tie of a fair method (FAIRPROJ_BENCH_DIAG; #44, runs "2026-12-02d" and "-cal") -----
# Every fit the audit makes goes through fp_call_solver(): its first min-max (mean matching) fit
# of a sample is the sample's, the others the replicates'. For each, the gaps around the k-th
# eigenvalue, over the eigenvalues' sum, of the matrix the method's subspace is the top k of:
# min-max's groups' covariances weighted by its dual weights (fit$weights), mean matching's
# pooled covariance projected off the span of the group means' differences
# (fit$constraint_basis). `tie_at`: the gap at k (eigenvalues k, k + 1) less the replicates'
# bias, over (sqrt(k) + sqrt(d - k)) times their sd, as the package judges standard PCA's pooled
# gap (fp_audit_near_tie(), a near-tie below 1); `tie_out`: the same for the gaps just outside
# that pair ((k - 1, k) and (k + 1, k + 2)), the smaller of the two.
solver_calls <- new.env()
solver_calls$list <- list()
fair_gaps <- function(method, fit, prep, k) {
  ev <- NULL
  # (the prepared problem's matrices through the package's accessors, as new matrices: a
  # prepared problem may hold no group covariances or C, and its work matrix is not touched)
  if (method == "minmax" && length(fit$weights) == length(prep$levels)) {
    covs <- lapply(seq_along(prep$levels), function(i) fairproj:::fp_prep_group(prep, i, new = TRUE))
    ev <- eigen(Reduce(`+`, Map(function(C, w) w * C, covs, fit$weights)), TRUE, only.values = TRUE)$values
  }
  if (method == "mean" && !is.null(fit$constraint_basis)) {
    ev <- eigen(fairproj:::fp_mean_complement(fit$constraint_basis)$to(fairproj:::fp_prep_C(prep, new = TRUE)), TRUE,
                only.values = TRUE)$values
  }
  if (is.null(ev) || !all(is.finite(ev)) || !(sum(pmax(ev, 0)) > 0)) return(rep(NA_real_, 3L))
  ev <- pmax(ev, 0)
  e <- function(i) if (i < 1L) NA_real_ else if (i > length(ev)) 0 else ev[i]
  c(e(k - 1L) - e(k), e(k) - e(k + 1L), e(k + 1L) - e(k + 2L)) / sum(ev)
}
record_fit <- function(method, fit, prep, k) {
  if (method %in% c("minmax", "mean")) {
    solver_calls$list[[length(solver_calls$list) + 1L]] <- list(method = method, gaps = fair_gaps(method, fit, prep, k))
  }
}
if (diag_on) {
  suppressMessages(trace("fp_call_solver", where = asNamespace("fairproj"), print = FALSE,
                         exit = bquote(.(record_fit)(method, returnValue(), prep, k))))
}
tie_stat <- function(g0, reps, k, d) {
  reps <- reps[is.finite(reps)]
  if (length(reps) < 10L || !is.finite(g0)) return(NA_real_)
  s <- stats::sd(reps)
  corrected <- g0 - (mean(reps) - g0)
  if (s > 0) corrected / ((sqrt(k) + sqrt(d - k)) * s) else if (corrected > 0) Inf else 0
}
tie_of <- function(iv, k, d) {
  out <- data.frame(tie_at = rep(NA_real_, nrow(iv)), tie_out = NA_real_)
  for (meth in c("minmax", "mean")) {
    calls <- Filter(function(z) z$method == meth, solver_calls$list)
    if (length(calls) < 11L) next
    G <- do.call(rbind, lapply(calls, `[[`, "gaps"))
    st <- vapply(1:3, function(w) tie_stat(G[1L, w], G[-1L, w], k, d), numeric(1))
    out$tie_at[iv$method == meth] <- st[2L]
    outside <- st[c(1L, 3L)][!is.na(st[c(1L, 3L)])]
    out$tie_out[iv$method == meth] <- if (length(outside)) min(outside) else NA_real_
  }
  out
}

# The candidate rule fixed on the calibration designs (run "2026-12-02d-cal"): a fair method's
# intervals would be flagged where tie_at < 0.5 and tie_out < 0.75; the cell table's
# `tie_flagged` is the share of samples it fires on (NA without FAIRPROJ_BENCH_DIAG, and for
# standard PCA). It is not the package's: see the header.
tie_rule <- function(z) !is.na(z$tie_at) & !is.na(z$tie_out) & z$tie_at < 0.5 & z$tie_out < 0.75

# ---- saved replicates (#44, item 1) ---------------------------------------------------------
# FAIRPROJ_BENCH_DRAWS_SAVE=file.rds keeps every audit's bootstrap replicates (what
# fp_audit_draw() returns: the costly part of an audit), keyed by design and sample;
# FAIRPROJ_BENCH_DRAWS_REPLAY=file1.rds,file2.rds hands them back to the same samples (same
# designs, seeds and sample numbers) instead of drawing them again, so that a change to how
# intervals and flags are made from the replicates is judged on the very same replicates in
# seconds per design (a sample not found is drawn afresh). The bench's own instrument.
draws <- new.env()
draws$key <- NULL
draws$store <- list()
draws_save <- env("FAIRPROJ_BENCH_DRAWS_SAVE", "")
draws_replay <- env("FAIRPROJ_BENCH_DRAWS_REPLAY", "")
if (nzchar(draws_save) || nzchar(draws_replay)) {
  orig_draw <- get("fp_audit_draw", asNamespace("fairproj"))
  if (nzchar(draws_replay)) {
    for (f in strsplit(draws_replay, ",")[[1L]]) draws$store <- c(draws$store, readRDS(f))
  }
  utils::assignInNamespace("fp_audit_draw", function(spec, moments, blocks, ks, ...) {
    dr <- if (!is.null(draws$key) && nzchar(draws_replay)) draws$store[[draws$key]]
    if (is.null(dr)) dr <- orig_draw(spec, moments, blocks, ks, ...)
    if (nzchar(draws_save) && !is.null(draws$key)) draws$store[[draws$key]] <- dr
    dr
  }, "fairproj")
}

# FAIRPROJ_BENCH_NEAR_TIE_C=c: standard PCA's pooled near-tie flag (fp_audit_near_tie()) with
# its multiplier `fp_near_tie_c` set to c (calibrating it, run "2026-12-03i"; the bench's own
# instrument)
# FAIRPROJ_BENCH_SMALL_RHO=t: the rows per direction below which a group's intervals are
# centred on the bias-corrected estimate (fp_small_group_rho; 0 turns it off)
small_rho <- env("FAIRPROJ_BENCH_SMALL_RHO", "")
if (nzchar(small_rho)) {
  if (!exists("fp_small_group_rho", asNamespace("fairproj"))) stop("this fairproj has no fp_small_group_rho")
  utils::assignInNamespace("fp_small_group_rho", as.numeric(small_rho), "fairproj")
}
# FAIRPROJ_BENCH_POOLED_OPT=tau: standard PCA's pooled optimism flag at fp_pooled_optimism_max = tau
pooled_opt <- env("FAIRPROJ_BENCH_POOLED_OPT", "")
if (nzchar(pooled_opt)) utils::assignInNamespace("fp_pooled_optimism_max", as.numeric(pooled_opt), "fairproj")
near_tie_c <- env("FAIRPROJ_BENCH_NEAR_TIE_C", "")
if (nzchar(near_tie_c)) {
  ns <- asNamespace("fairproj")
  if (!exists("fp_near_tie_c", ns)) stop("this fairproj has no fp_near_tie_c")
  utils::assignInNamespace("fp_near_tie_c", as.numeric(near_tie_c), "fairproj")
}

# ---- run ------------------------------------------------------------------------------------
cells <- list()
all_samples <- list()
t0 <- proc.time()[["elapsed"]]
for (x in grid) {
  set.seed(sum(utf8ToInt(x$name)))
  pop <- population(x)
  truth <- truth_of(pop, x)
  key_t <- paste(truth$method, truth$term, truth$group)
  recs <- list()
  for (s in seq_len(nsim)) {
    xs <- do.call(rbind, Map(function(p, n) draw_group(p, n, x$dist, x$d), pop, x$n))
    gs <- rep(names(pop), x$n)
    solver_calls$list <- list()
    draws$key <- paste(x$name, s)
    a <- tryCatch(suppressWarnings(fair_audit(xs, gs, k = x$k, methods = methods, replicates = nrep, level = level,
                                              seed = s, progress = FALSE)), error = function(e) NULL)
    if (is.null(a)) next
    iv <- as.data.frame(tidy(a, matrix = "intervals"))
    iv <- iv[iv$k == x$k, , drop = FALSE]
    dz <- if (diag_on && !is.null(captured$last)) diag_of(captured$last, iv) else data.frame(z_own = rep(NA_real_, nrow(iv)), z_method = NA_real_, switch = NA_real_)
    captured$last <- NULL
    tz <- if (diag_on) tie_of(iv, x$k, x$d) else data.frame(tie_at = rep(NA_real_, nrow(iv)), tie_out = NA_real_)
    i <- match(paste(iv$method, iv$term, iv$group), key_t)
    tv <- truth$truth[i]
    reason <- if ("reason" %in% names(iv)) iv$reason else NA_character_
    recs[[length(recs) + 1L]] <- data.frame(design = x$name, sample = s, method = iv$method, term = iv$term,
                                            group = iv$group, truth = tv, estimate = iv$estimate,
                                            low = iv$conf.low, high = iv$conf.high,
                                            cover = !is.na(tv) & iv$conf.low <= tv & tv <= iv$conf.high,
                                            reliable = iv$reliable %in% TRUE, reason = reason,
                                            from_zero = iv$conf.low %in% 0, z_own = dz$z_own, z_method = dz$z_method,
                                            switch = dz$switch,
                                            tie_at = tz$tie_at, tie_out = tz$tie_out)
  }
  h <- do.call(rbind, recs)
  h <- h[!is.na(h$truth) & !is.na(h$low), , drop = FALSE]
  if (nzchar(samples_csv)) all_samples[[length(all_samples) + 1L]] <- h
  key <- paste(h$method, h$term, h$group, sep = "|")
  for (kk in unique(key)) {
    z <- h[key == kk, ]
    rel <- z$reliable
    fl <- mean(!rel)
    rc <- if (any(rel)) mean(z$cover[rel]) else NA_real_
    rs <- z$reason[!rel & !is.na(z$reason)]
    verdict <- if (fl >= 0.8) "flagged" else if (rc < 0.85) "below" else if (rc > 0.95) "above" else "within"
    cells[[length(cells) + 1L]] <- data.frame(
      design = x$name, dist = x$dist, shape = x$shape, d = x$d, k = x$k, m = x$m, n = paste(x$n, collapse = "/"),
      method = z$method[1L], term = z$term[1L], group = z$group[1L], truth = signif(z$truth[1L], 3),
      samples = nrow(z), coverage = round(mean(z$cover), 3), reliable_cov = round(rc, 3), n_reliable = sum(rel),
      flagged = round(fl, 3), from_zero = round(mean(z$from_zero), 3),
      reason = if (length(rs)) names(sort(table(rs), decreasing = TRUE))[1L] else NA_character_,
      verdict = verdict, well_behaved = well_behaved(x),
      tie_flagged = if (diag_on && z$method[1L] != "standard") round(mean(tie_rule(z)), 3) else NA_real_,
      stringsAsFactors = FALSE)
  }
  cat(sprintf("%s: %d samples done (%.0f s)\n", x$name, length(recs), proc.time()[["elapsed"]] - t0))
  if (nzchar(out_csv)) utils::write.csv(do.call(rbind, cells), out_csv, row.names = FALSE)
  if (nzchar(samples_csv)) utils::write.csv(do.call(rbind, all_samples), samples_csv, row.names = FALSE)
  if (nzchar(draws_save)) saveRDS(draws$store, draws_save)
}
tab <- do.call(rbind, cells)
if (nzchar(out_csv)) utils::write.csv(tab, out_csv, row.names = FALSE)
if (nzchar(samples_csv)) utils::write.csv(do.call(rbind, all_samples), samples_csv, row.names = FALSE)
cat("\nVerdicts, all cells:\n")
print(table(tab$verdict))
cat("\nWell-behaved designs: verdicts, and cells flagged in more than 10% of samples:\n")
wb <- tab[tab$well_behaved, , drop = FALSE]
print(table(wb$verdict))
cat(sprintf("flagged > 10%%: %d of %d\n", sum(wb$flagged > 0.1), nrow(wb)))
