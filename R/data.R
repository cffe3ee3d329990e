# Readers for the real datasets of the papers. Nothing is downloaded: every reader reads the
# public copies listed in the data README from a directory given by the user (default: the
# environment variable FAIRPROJ_DATA). Every reader follows the preprocessing of the paper
# that uses the dataset and records what it did in `info`.

# ---------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------

fp_src_credit <- paste("UCI Machine Learning Repository, 'default of credit card clients'",
                       "(Yeh and Lien 2009)")
fp_src_olfat <- paste("UCI Machine Learning Repository, preprocessed by Olfat and Aswani (2019),",
                      "github.com/molfat66/FairML (also used by Vu et al. 2022,",
                      "github.com/hieuvt29/distributionally_robust_fair_pca)")
fp_src_lee <- paste("Lee et al. (2022) preprocessed splits (AIF360),",
                    "github.com/nick-jhlee/fair-manifold-pca, folder datasets/")
fp_src_lfw <- paste("Labeled Faces in the Wild (Huang et al. 2007), 49 x 36 grey crops of",
                    "Samadi et al. (2018), github.com/mhli971/Fair-PCA data/images/img*.txt")

fp_cite <- list(
  samadi = "Samadi, Tantipongpipat, Morgenstern, Singh, Vempala (2018). The price of fair PCA: one extra dimension. NeurIPS 2018.",
  olfat = "Olfat, Aswani (2019). Convex formulations for fair principal component analysis. AAAI 2019.",
  vu = "Vu, Tran, Yue, Nguyen (2022). Distributionally robust fair principal components via geodesic descents. ICLR 2022.",
  lee = "Lee, Kim, Olfat, Hasegawa-Johnson, Yoo (2022). Fast and efficient MMD-based fair PCA via optimization over Stiefel manifold. AAAI 2022.",
  kleindessner = "Kleindessner, Donini, Russell, Zafar (2023). Efficient fair PCA for fair representation learning. AISTATS 2023.",
  matakos = "Matakos, Ordozgoiti, Thejaswi (2024). Fair column subset selection. KDD 2024.",
  kamani = "Kamani, Haddadpour, Forsati, Mahdavi (2022). Efficient fair principal component analysis. Machine Learning 111.",
  yeh = "Yeh, Lien (2009). The comparisons of data mining techniques for the predictive accuracy of probability of default of credit card clients. Expert Systems with Applications 36(2).",
  lfw = "Huang, Ramesh, Berg, Learned-Miller (2007). Labeled Faces in the Wild. Tech. Rep. 07-49, UMass Amherst.",
  adult = "Kohavi (1996). Scaling up the accuracy of naive-Bayes classifiers: a decision-tree hybrid. KDD-96. UCI 'Adult'.",
  german = "Hofmann (1994). Statlog (German credit data). UCI Machine Learning Repository.",
  heart = "Detrano et al. (1989). International application of a new probability algorithm for the diagnosis of coronary artery disease. Am. J. Cardiology 64. UCI 'Heart Disease'.",
  student = "Cortez, Silva (2008). Using data mining to predict secondary school student performance. FUBUTEC 2008. UCI 'Student Performance'.",
  compas = "Angwin, Larson, Mattu, Kirchner (2016). Machine bias. ProPublica; data github.com/propublica/compas-analysis.",
  communities = "Redmond, Baveja (2002). A data-driven software tool for enabling cooperative information sharing among police departments. EJOR 141. UCI 'Communities and Crime'."
)

# One entry per dataset name. n, d, sizes: what the reader returns with its default options
# (checked against the data README and the papers by the tests).
fp_olfat_spec <- function(name, file, title, n, d, attr, levels, sizes, uci, paper_note = NULL,
                          label_note = NULL) {
  list(name = name, family = "olfat", files = file, title = title, n = n, d = d,
       group = attr, levels = levels, sizes = sizes,
       used_by = "Olfat & Aswani 2019; Vu et al. 2022 (Table 2)",
       source = paste0(uci, "; ", fp_src_olfat),
       citation = c(fp_cite$olfat, fp_cite$vu),
       note = c(label_note, paper_note))
}

fp_data_registry <- function() {
  olfat <- list(
    fp_olfat_spec("default_credit", "olfat/default_credit.csv.xz", "Default Credit (DRFPCA version)",
                  30000L, 22L, "EDUCATION: 0 = graduate school/university (UCI 0, 1, 2), 1 = other (UCI 3-6)",
                  c("high_education", "low_education"), c(24629L, 5371L), fp_src_credit,
                  label_note = "y = default.payment.next.month (1 = default)."),
    fp_olfat_spec("biodeg", "olfat/Biodeg_Data.csv.xz", "QSAR biodegradation", 1055L, 40L,
                  "expClassRB?: 1 = ready biodegradable", c("not_biodegradable", "biodegradable"),
                  c(699L, 356L), "UCI 'QSAR biodegradation' (Mansouri et al. 2013)",
                  label_note = "y = the descriptor nX (second-to-last column), which the Vu et al. code treats as the label; it is not a class label."),
    fp_olfat_spec("ecoli", "olfat/Ecoli_Data.csv.xz", "E. coli", 333L, 7L,
                  "isCytoplasm?: 1 = cp", c("not_cytoplasm", "cytoplasm"), c(193L, 140L),
                  "UCI 'Ecoli' (Nakai and Kanehisa 1991)",
                  label_note = "y = DummyMain, a random 0/1 dummy."),
    fp_olfat_spec("energy", "olfat/Energy_Data.csv.xz", "Energy efficiency", 768L, 8L,
                  "Orientation<4?: 1 = orientation 2 or 3", c("orientation_4_5", "orientation_2_3"),
                  c(384L, 384L), "UCI 'Energy efficiency' (Tsanas and Xifara 2012)",
                  label_note = "y = GlazingAreaDistribution<3?."),
    fp_olfat_spec("german_credit", "olfat/German_Credit_Data.csv.xz", "German credit (Olfat version)",
                  1000L, 48L, "A13: 1 = age < 40 (the column A13 of the file is the binarised age)",
                  c("age_40_plus", "age_under_40"), c(299L, 701L),
                  "UCI 'Statlog (German credit)' (Hofmann 1994)",
                  label_note = "y = A21, credit risk (1 = bad).",
                  paper_note = "Vu et al. Table 2 calls the attribute 'A13 >= 200DM'; in the file A13 is age < 40 (701 rows), as checked against german.data. The file has 49 features; the constant A4_7 (purpose code not present in the data) is dropped as in the Vu et al. code, giving their d = 48."),
    fp_olfat_spec("image", "olfat/Image_Seg_Data.csv.xz", "Image segmentation (path vs grass)",
                  660L, 18L, "class=path?(vs grass): 1 = path", c("grass", "path"), c(330L, 330L),
                  "UCI 'Image segmentation' (Brodley 1990)",
                  label_note = "y = DummyMain, a random 0/1 dummy.",
                  paper_note = "The constant column regionpixcount is dropped, as in the Vu et al. code (d = 18)."),
    fp_olfat_spec("letter", "olfat/Letter_Rec_Data.csv.xz", "Letter recognition", 20000L, 16L,
                  "Vowel?: 1 = A, E, I, O, U or Y", c("consonant", "vowel"), c(15336L, 4664L),
                  "UCI 'Letter recognition' (Frey and Slate 1991)",
                  label_note = "y = DummyMain, a random 0/1 dummy."),
    fp_olfat_spec("magic", "olfat/Magic_Data.csv.xz", "MAGIC gamma telescope", 19020L, 10L,
                  "classIsGamma?: 1 = gamma", c("hadron", "gamma"), c(6688L, 12332L),
                  "UCI 'MAGIC gamma telescope' (Bock et al. 2004)",
                  label_note = "y = DummyMain, a random 0/1 dummy."),
    fp_olfat_spec("parkinsons", "olfat/Parkinsons_Data.csv.xz", "Parkinsons telemonitoring",
                  5875L, 20L, "sex: 0 = male, 1 = female", c("male", "female"), c(4008L, 1867L),
                  "UCI 'Parkinsons telemonitoring' (Tsanas et al. 2010)",
                  label_note = "y = DummyMain, a random 0/1 dummy."),
    fp_olfat_spec("skillcraft", "olfat/SkillCraft_Data.DRFPCA.csv.xz", "SkillCraft1 (DRFPCA version)",
                  3337L, 17L, ">20?: 1 = age over 20", c("age_20_or_less", "age_over_20"),
                  c(1496L, 1841L), "UCI 'SkillCraft1' (Thompson et al. 2013)",
                  label_note = "y = DummyMain, a random 0/1 dummy.",
                  paper_note = "Default version = 'drfpca' (Vu et al.: TotalHours dropped, the row with TotalHours = 1e6 removed; 3337 x 17). version = 'olfat' reads the original Olfat & Aswani file (3338 x 18)."),
    fp_olfat_spec("statlog", "olfat/Statlog_Data.csv.xz", "Statlog (Landsat satellite)", 3071L, 36L,
                  "RedSoil?: 1 = red soil (vs grey and damp grey soil)", c("grey_soil", "red_soil"),
                  c(1999L, 1072L), "UCI 'Statlog (Landsat satellite)' (Srinivasan 1993)",
                  label_note = "y = DummyMain, a random 0/1 dummy."),
    fp_olfat_spec("steel", "olfat/Steel_Data.csv.xz", "Steel plates faults", 1941L, 24L,
                  "faultOther?: 1 = Other_Faults", c("not_other_fault", "other_fault"),
                  c(1268L, 673L), "UCI 'Steel plates faults' (Buscema et al. 2010)",
                  label_note = "y = DummyMain, a random 0/1 dummy.",
                  paper_note = "perimX and perimY are dropped, as in the Vu et al. code (d = 24)."),
    fp_olfat_spec("taiwan_credit", "olfat/Taiwanese_Credit_Data.csv.xz", "Taiwan credit (Olfat version)",
                  29623L, 22L, "SEX: 0 = male, 1 = female", c("male", "female"), c(11743L, 17880L),
                  fp_src_credit, label_note = "y = default payment next month (1 = default)."),
    fp_olfat_spec("wine_quality", "olfat/Wine_Quality_Data.csv.xz", "Wine quality (red and white)",
                  6497L, 11L, "white: 1 = white wine", c("red", "white"), c(1599L, 4898L),
                  "UCI 'Wine quality' (Cortez et al. 2009)", label_note = "y = quality >= 6.")
  )
  names(olfat) <- vapply(olfat, `[[`, "", "name")

  lee <- function(name, folder, title, n, d, attr, levels, sizes, src, cite_data) {
    list(name = name, family = "lee", folder = folder,
         files = sprintf("lee/%s/{train,test}_{0..9}.csv.xz", folder), title = title,
         n = n, d = d, group = attr, levels = levels, sizes = sizes,
         used_by = "Lee et al. 2022; Kleindessner et al. 2023",
         source = paste0(src, "; ", fp_src_lee),
         citation = c(fp_cite$lee, fp_cite$kleindessner, cite_data), note = NULL)
  }
  css <- function(name, files, title, n, d, attr, levels, sizes, src, cite_data, note = NULL) {
    list(name = name, family = "css", files = files, title = title, n = n, d = d, group = attr,
         levels = levels, sizes = sizes, used_by = "Matakos et al. 2024 (Fair CSS, Table 1)",
         source = src, citation = c(fp_cite$matakos, cite_data), note = note)
  }

  others <- list(
    credit = list(name = "credit", family = "samadi_credit", files = "credit/default_degree.csv.xz",
                  title = "Default of credit card clients (Samadi et al. file)", n = 30000L, d = 21L,
                  group = "EDUCATION: high = graduate school or university (1, 2), low = all other codes",
                  levels = c("low", "high"), sizes = c(5385L, 24615L),
                  used_by = "Samadi et al. 2018; Tantipongpipat et al. 2019",
                  source = paste0(fp_src_credit, "; file of github.com/mhli971/Fair-PCA data/credit/default_degree.csv"),
                  citation = c(fp_cite$samadi, fp_cite$yeh), note = NULL),
    lfw = list(name = "lfw", family = "lfw", files = c("lfw/lfw_1764.csv.xz", "lfw/sex.txt"),
               title = "Labeled Faces in the Wild, 49 x 36 grey crops", n = 13232L, d = 1764L,
               group = "sex (sex.txt): 0 = female, 1 = male", levels = c("female", "male"),
               sizes = c(2962L, 10270L), used_by = "Samadi et al. 2018",
               source = fp_src_lfw, citation = c(fp_cite$samadi, fp_cite$lfw),
               note = "Samadi et al. describe the images as 42 x 42 = 1764 pixels; the files hold 49 rows x 36 columns = 1764 values per image (row-major)."),
    lfw576 = list(name = "lfw576", family = "lfw576", files = c("lfw/lfw_1764.csv.xz", "lfw/sex.txt"),
                  title = "LFW, 2000 + 2000 faces rescaled to 24 x 24", n = 4000L, d = 576L,
                  group = "sex: female / male", levels = c("female", "male"),
                  sizes = c(2000L, 2000L), used_by = "Vu et al. 2022 (Table 2, LFW)",
                  source = fp_src_lfw, citation = c(fp_cite$vu, fp_cite$samadi, fp_cite$lfw),
                  note = "Vu et al. do not publish their subsample or their resizing method: the rows are a seeded random sample (see `seed`) and the 49 x 36 images are resized to 24 x 24 by area averaging, so numbers will not match the paper digit for digit."),
    lee_adult = lee("lee_adult", "Adult", "Adult income (Lee et al. splits)", 1582L, 97L,
                    "sex: 0 = female, 1 = male (also feature column 3, standardised)",
                    c("female", "male"), c(540L, 1042L), "UCI 'Adult' (Kohavi 1996)", fp_cite$adult),
    lee_compas = lee("lee_compas", "COMPAS", "COMPAS (Lee et al. splits)", 1727L, 11L,
                     "race: 0 = other, 1 = Caucasian (also feature column 2, standardised)",
                     c("other", "caucasian"), c(1147L, 580L), "ProPublica COMPAS", fp_cite$compas),
    lee_german = lee("lee_german", "German", "German credit (Lee et al. splits)", 700L, 57L,
                     "age >= 25: 0 = no, 1 = yes (also feature column 5, standardised)",
                     c("age_under_25", "age_25_plus"), c(109L, 591L),
                     "UCI 'Statlog (German credit)' (Hofmann 1994)", fp_cite$german),
    css_heart = css("css_heart", "css/processed.cleveland.data.xz", "Heart disease (Cleveland)",
                    297L, 13L, "sex: male (A, sex = 1) / female (B)", c("male", "female"),
                    c(201L, 96L), "UCI 'Heart Disease', processed.cleveland.data", fp_cite$heart),
    css_german = css("css_german", "css/german.data.xz", "German credit (raw UCI)", 1000L, 62L,
                     "sex from personal status: female = A92 or A95, male = the rest",
                     c("male", "female"), c(690L, 310L), "UCI 'Statlog (German credit)' german.data",
                     fp_cite$german),
    css_credit = css("css_credit", "credit/uci_credit_card.csv.xz", "Default of credit card clients",
                     30000L, 24L, "SEX: female (A, SEX = 2) / male (B, SEX = 1)",
                     c("female", "male"), c(18112L, 11888L), fp_src_credit, fp_cite$yeh,
                     note = "The authors' file credit-card.csv is not public; the UCI file with the ID column and the label gives their 25 columns (24 after dropping SEX)."),
    css_student = css("css_student", "css/student-por.csv.xz", "Student performance (Portuguese)",
                      649L, 57L, "sex: M (A) / F (B)", c("M", "F"), c(266L, 383L),
                      "UCI 'Student Performance', student-por.csv", fp_cite$student),
    css_adult = css("css_adult", "css/adult.data.xz", "Adult income (raw UCI adult.data)", 32561L,
                    108L, "sex: Male (A) / Female (B)", c("Male", "Female"), c(21790L, 10771L),
                    "UCI 'Adult' adult.data", fp_cite$adult),
    css_compas = css("css_compas", "css/compas-scores.csv.xz", "COMPAS (compas-scores.csv)",
                     719L, 188L, "sex: Male (A) / Female (B)", c("Male", "Female"),
                     c(619L, 100L), "ProPublica compas-scores.csv", fp_cite$compas,
                     note = "Matakos et al. Table 1 gives 9336 / 2421 rows: the counts of the raw file, printed by their loader before it drops rows with a missing value among its 30 columns (vr_offense_date is set only for violent reoffenders), which leaves 719 rows (619 / 100). The matrix matches Table 1 otherwise: 189 columns with sex, group ranks 167 and 73."),
    css_communities = css("css_communities", c("css/communities.data.xz", "css/communities.names"),
                          "Communities and crime", 1994L, 101L,
                          "majority white: racePctWhite >= 0.5 (A) / otherwise (B)",
                          c("majority_white", "not_majority_white"), c(1685L, 309L),
                          "UCI 'Communities and Crime' communities.data", fp_cite$communities),
    adult_race = list(name = "adult_race", family = "kamani_adult", files = "css/adult.data.xz",
                      title = "Adult income, race groups", n = 32561L, d = 14L,
                      group = "race (5 groups)",
                      levels = c("Black", "White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"),
                      sizes = c(3124L, 27816L, 1039L, 311L, 271L), used_by = "Kamani et al. 2022",
                      source = "UCI 'Adult' adult.data", citation = c(fp_cite$kamani, fp_cite$adult),
                      note = "Kamani et al. report race counts 3047 / 27994 / 312 / 962 / 246 (and sex 10548 / 22013), which do not match UCI adult.data (3124 / 27816 / 1039 / 311 / 271; sex 10771 / 21790); the totals (32561) agree. Their encoding of the 8 categorical columns is not stated; the default here codes each as integers (d = 14, their d)."),
    adult_sex = list(name = "adult_sex", family = "kamani_adult", files = "css/adult.data.xz",
                     title = "Adult income, sex groups", n = 32561L, d = 14L,
                     group = "sex: Female / Male", levels = c("Female", "Male"),
                     sizes = c(10771L, 21790L), used_by = "Kamani et al. 2022",
                     source = "UCI 'Adult' adult.data", citation = c(fp_cite$kamani, fp_cite$adult),
                     note = "Kamani et al. report 10548 female / 22013 male; UCI adult.data has 10771 / 21790."),
    credit_marriage = list(name = "credit_marriage", family = "kamani_credit",
                           files = "credit/uci_credit_card.csv.xz",
                           title = "Default of credit card clients, marriage groups", n = 29946L,
                           d = 23L, group = "MARRIAGE: 1 = married, 2 = single, 3 = other",
                           levels = c("married", "single", "other"),
                           sizes = c(13659L, 15964L, 323L), used_by = "Kamani et al. 2022",
                           source = fp_src_credit, citation = c(fp_cite$kamani, fp_cite$yeh),
                           note = "The 54 rows with the undocumented MARRIAGE = 0 are dropped by default (Kamani et al.'s counts sum to 29946)."),
    credit_sex = list(name = "credit_sex", family = "kamani_credit",
                      files = "credit/uci_credit_card.csv.xz",
                      title = "Default of credit card clients, sex groups", n = 30000L, d = 23L,
                      group = "SEX: 2 = female, 1 = male", levels = c("female", "male"),
                      sizes = c(18112L, 11888L), used_by = "Kamani et al. 2022",
                      source = fp_src_credit, citation = c(fp_cite$kamani, fp_cite$yeh), note = NULL)
  )
  reg <- c(others[c("credit", "lfw", "lfw576")], olfat, others[setdiff(names(others), c("credit", "lfw", "lfw576"))])
  reg
}

fp_data_names <- function() names(fp_data_registry())

#' Datasets of the papers
#'
#' Lists every dataset name that [fairproj_data()] knows, with the dimensions and group sizes
#' its reader returns with the default options, the group attribute, the file(s) it needs
#' (relative to the data directory) and the papers that use it.
#'
#' @return A data.frame with one row per dataset: `name`, `title`, `n` (rows), `d` (columns of
#'   `x`), `groups` (number of groups), `group` (the attribute and its coding), `sizes` (group
#'   sizes, in the order of the factor levels), `files`, `used_by` and `note` (where our copy
#'   differs from a paper). For the Lee et al. splits, `n` and `sizes` are those of
#'   `split = 0, part = "train"`.
#' @seealso [fairproj_data()]
#' @examples
#' ds <- fairproj_datasets()
#' ds[, c("name", "n", "d", "groups")]
#' @export
fairproj_datasets <- function() {
  reg <- fp_data_registry()
  sizes <- vapply(reg, function(s) {
    if (anyNA(s$sizes)) return(NA_character_)
    paste(paste0(s$levels, "=", s$sizes), collapse = "; ")
  }, "")
  data.frame(
    name = names(reg),
    title = vapply(reg, `[[`, "", "title"),
    n = vapply(reg, function(s) as.integer(s$n), 1L),
    d = vapply(reg, function(s) as.integer(s$d), 1L),
    groups = vapply(reg, function(s) length(s$levels), 1L),
    group = vapply(reg, `[[`, "", "group"),
    sizes = unname(sizes),
    files = vapply(reg, function(s) paste(s$files, collapse = ", "), ""),
    used_by = vapply(reg, `[[`, "", "used_by"),
    note = vapply(reg, function(s) paste(s$note, collapse = " "), ""),
    row.names = NULL, stringsAsFactors = FALSE
  )
}

# ---------------------------------------------------------------------------------------------
# Front door
# ---------------------------------------------------------------------------------------------

#' Load a dataset of the papers
#'
#' Reads one of the datasets used in the experiments of the papers implemented by the package,
#' from local copies of the public files, and applies the preprocessing of the paper that uses
#' it. Nothing is downloaded: the files are looked up in `dir` (by default the environment
#' variable `FAIRPROJ_DATA`); [fairproj_datasets()] lists the names and the files each needs.
#' A missing file gives an error of class `fairproj_data_error` that names the file, the
#' directory searched and where the data come from. A file `name.csv` is used when the
#' compressed `name.csv.xz` is absent.
#'
#' @section Datasets and their preprocessing:
#' * `credit`: the Samadi et al. (2018) credit file (`credit/default_degree.csv.xz`): their 21
#'   features (SEX ... PAY_AMT5; their code drops PAY_AMT6), groups by education (high =
#'   graduate school or university, low = the rest: 24615 / 5385), each column centred and
#'   divided by its standard deviation (`standardise`). The group centring the fair PCA uses is
#'   done by the methods of the package (per-group moments); `center_groups = TRUE` also centres
#'   each group's rows at its own mean. Options: `standardise = TRUE`, `all_features = FALSE`
#'   (`TRUE` keeps PAY_AMT6, as a Python port does), `center_groups = FALSE`.
#' * `lfw`: 13232 LFW faces of Samadi et al., 1764 pixels (49 x 36 crops, row-major), groups
#'   female 2962 / male 10270, pixel values divided by 255. The file stores integers k with
#'   pixel value k / 3; `exact = TRUE` uses `lfw/value_map.csv` to return the float32 values of
#'   the original text files bit for bit. Options: `scale = TRUE` (divide by 255),
#'   `exact = FALSE`, `center_groups = FALSE`. Reading takes a few seconds. The element
#'   `attributes` is a data.frame of the attributes the data offer for intersectional groups:
#'   `sex` and the binary race flags `asian`, `black`, `white` (factors "no"/"yes"; they overlap,
#'   28 images have none and 779 all three), e.g.
#'   `fair_pca(d$x, d$attributes[c("sex", "white")], k = 10)`.
#' * `lfw576`: the Vu et al. (2022) variant: 2000 female and 2000 male faces drawn at random
#'   with `seed` (R's Mersenne-Twister with "Rejection" sampling, set locally; the random state
#'   of the session is restored), in the original row order, each image resized from 49 x 36 to
#'   `size` x `size` = 24 x 24 by area averaging (each output pixel is the overlap-weighted mean
#'   of the input pixels its cell covers). `info$rows` gives the rows of `lfw` used. Options:
#'   `n_per_group = 2000`, `seed = 1`, `size = 24`, `scale = TRUE`.
#' * `default_credit`, `biodeg`, `ecoli`, `energy`, `german_credit`, `image`, `letter`, `magic`,
#'   `parkinsons`, `skillcraft`, `statlog`, `steel`, `taiwan_credit`, `wine_quality`: the
#'   preprocessed files of Olfat & Aswani (2019) used by Vu et al. (2022), Table 2 (last column =
#'   sensitive attribute, second-to-last = `y`). As in the Vu et al. code, constant columns are
#'   dropped (and perimX, perimY for `steel`), which gives the `d` of their Table 2, and each
#'   column is standardised with the population standard deviation (divisor n). Options:
#'   `standardise = TRUE` (use `FALSE` to standardise with training statistics yourself, as their
#'   train/test protocol does), `drop_constant = TRUE`; for `skillcraft` also
#'   `version = c("drfpca", "olfat")`.
#' * `lee_adult`, `lee_compas`, `lee_german`: the 10 random 70/30 splits of Lee et al. (2022)
#'   used by Kleindessner et al. (2023); features already standardised with the training
#'   statistics of each split; the protected attribute is also one of the features, as in
#'   those papers. Options: `split = 0` (0 to 9), `part = c("train", "test", "full")` (`"full"`:
#'   the unstandardised subsample, COMPAS and German only), `drop_protected = FALSE`.
#' * `css_heart`, `css_german`, `css_credit`, `css_student`, `css_adult`, `css_compas`,
#'   `css_communities`: the Fair CSS datasets of Matakos et al. (2024) with their preprocessing:
#'   the protected attribute is dropped, categorical columns are one-hot encoded (numeric
#'   columns first, then the indicators of each categorical column, levels in sorted order,
#'   named `column_level`), label columns are kept as features, as in their code, and each
#'   group's columns are scaled to unit Euclidean norm within the group, then rounded to 5
#'   decimals. The first factor level is their group A. Dataset specifics: heart drops the 6
#'   rows with missing values; german derives sex from the personal status (A92, A95 = female);
#'   compas converts 8 dates to days since 1900-01-01, keeps their 30 columns and drops rows
#'   with a missing value; communities drops county, community, communityname and the 22
#'   LEMAS/police columns, sets missing values to 0 and drops racePctWhite and racepctblack
#'   after forming the groups. Options: `normalise = TRUE` (`FALSE` returns the one-hot matrix
#'   without per-group normalisation), `digits = 5` (`NULL`: no rounding).
#' * `adult_race`, `adult_sex`, `credit_marriage`, `credit_sex`: the data of Kamani et al.
#'   (2022): UCI `adult.data` with its 14 features (label dropped; sex and race kept) and UCI
#'   credit with its 23 features (ID and label dropped). Their encoding and scaling are not
#'   stated; by default categorical columns are coded as integers (sorted levels, from 0) and
#'   every column is standardised (divisor n - 1). Options: `standardise = TRUE`,
#'   `encoding = c("integer", "onehot")` (Adult), `part = c("train", "test")` (Adult: `"test"`
#'   reads the official test file `adult.test`, 16281 rows, coded and standardised with the
#'   levels, means and standard deviations of `adult.data`, so that a model fitted on the
#'   training data applies to it), `drop_unknown = TRUE` (`credit_marriage`: drop the 54 rows
#'   with MARRIAGE = 0).
#'
#' @param name Dataset name, one of `fairproj_datasets()$name`.
#' @param dir Directory holding the data files (the layout of the data README: `credit/`,
#'   `lfw/`, `olfat/`, `css/`, `lee/`). Defaults to the environment variable `FAIRPROJ_DATA`.
#' @param ... Options of the dataset's reader (see the section above). Unknown options give an
#'   error.
#' @return An object of class `fairproj_data`: a list with
#'   * `x`: numeric matrix (rows = observations) with column names;
#'   * `group`: factor, one level per group;
#'   * `y`: the label (numeric), or `NULL` when the dataset has none;
#'   * `info`: list with `name`, `title`, `source`, `citation`, `used_by`, `files` (full paths
#'     read), `group` (the attribute and its coding), `preprocessing` (character vector of the
#'     steps applied), `options` (the reader's options), `notes` (differences from the papers)
#'     and, for some datasets, more fields (`dropped` columns, `rows` used).
#' @seealso [fairproj_datasets()], [fair_pca()]
#' @examples
#' fairproj_datasets()[, c("name", "n", "d")]
#' if (nzchar(Sys.getenv("FAIRPROJ_DATA"))) {
#'   ecoli <- fairproj_data("ecoli")
#'   print(ecoli)
#'   fit <- fair_pca(ecoli$x, ecoli$group, k = 2)
#' }
#' @export
fairproj_data <- function(name, dir = Sys.getenv("FAIRPROJ_DATA"), ...) {
  reg <- fp_data_registry()
  if (!is.character(name) || length(name) != 1L || is.na(name)) {
    fp_abort("must be a single string; see fairproj_datasets()$name", "name")
  }
  if (!name %in% names(reg)) {
    near <- agrep(name, names(reg), value = TRUE, max.distance = 0.2)
    hint <- if (length(near)) sprintf(" (did you mean %s?)", paste(shQuote(near), collapse = ", ")) else ""
    fp_abort(sprintf("'%s' is not a known dataset%s; see fairproj_datasets()$name", name, hint), "name")
  }
  if (!is.character(dir) || length(dir) != 1L || is.na(dir)) {
    fp_abort("must be a single directory path (a string)", "dir")
  }
  spec <- reg[[name]]
  reader <- switch(spec$family,
                   samadi_credit = fp_read_samadi_credit, lfw = fp_read_lfw,
                   lfw576 = fp_read_lfw576, olfat = fp_read_olfat, lee = fp_read_lee,
                   css = fp_read_css, kamani_adult = fp_read_kamani_adult,
                   kamani_credit = fp_read_kamani_credit)
  dots <- list(...)
  allowed <- setdiff(names(formals(reader)), c("spec", "dir"))
  if (length(dots)) {
    nm <- names(dots)
    if (is.null(nm) || any(!nzchar(nm))) fp_abort("options must be named", "...")
    bad <- setdiff(nm, allowed)
    if (length(bad)) {
      fp_abort(sprintf("unknown option(s) %s for dataset '%s'; its options are: %s",
                       paste(shQuote(bad), collapse = ", "), name,
                       if (length(allowed)) paste(allowed, collapse = ", ") else "none"), "...")
    }
  }
  do.call(reader, c(list(spec = spec, dir = dir), dots))
}

#' @export
print.fairproj_data <- function(x, ...) {
  info <- x$info
  cat(sprintf("fairproj dataset '%s': %s\n", info$name, info$title))
  cat(sprintf("  %d rows x %d columns; label: %s\n", nrow(x$x), ncol(x$x),
              if (is.null(x$y)) "none" else "yes"))
  tab <- table(x$group)
  cat(sprintf("  groups (%s): %s\n", info$group,
              paste(paste0(names(tab), " ", as.integer(tab)), collapse = ", ")))
  cat("  preprocessing:\n")
  cat(paste0("    - ", info$preprocessing, "\n"), sep = "")
  if (length(info$notes)) cat(paste0("  note: ", info$notes, "\n"), sep = "")
  cat(sprintf("  used by: %s\n", info$used_by))
  invisible(x)
}

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

fp_data_abort <- function(message) {
  fp_abort(message, NULL, class = "fairproj_data_error")
}

# Full path of a data file; a classed error naming the file, the directory and the source
# when it is missing.
fp_data_file <- function(spec, dir, rel) {
  if (!nzchar(dir)) {
    fp_data_abort(sprintf(paste(
      "dataset '%s' needs the file '%s', but no data directory was given:",
      "set the environment variable FAIRPROJ_DATA or pass `dir`.",
      "The data originally come from: %s. fairproj never downloads data."),
      spec$name, rel, spec$source))
  }
  path <- file.path(dir, rel)
  if (file.exists(path)) return(path)
  plain <- sub("\\.xz$", "", path)
  if (plain != path && file.exists(plain)) return(plain)
  fp_data_abort(sprintf(paste(
    "dataset '%s': file '%s' not found in the data directory '%s' (looked for '%s').",
    "The data originally come from: %s. fairproj never downloads data:",
    "put a copy of the file there, or point `dir` / FAIRPROJ_DATA to the directory that has it."),
    spec$name, rel, normalizePath(dir, mustWork = FALSE), path, spec$source))
}

fp_data_read_csv <- function(path, ...) {
  res <- tryCatch(utils::read.csv(path, ...), error = function(e) e)
  if (inherits(res, "error")) {
    fp_data_abort(sprintf("could not parse '%s': %s", path, conditionMessage(res)))
  }
  res
}

fp_data_check_cols <- function(df, need, path) {
  miss <- setdiff(need, names(df))
  if (length(miss)) {
    fp_data_abort(sprintf("'%s' lacks the expected column(s) %s; is it the file described in the data README?",
                          path, paste(shQuote(miss), collapse = ", ")))
  }
}

fp_data_numeric <- function(df, path) {
  ok <- vapply(df, function(v) is.numeric(v) || is.logical(v), logical(1))
  if (!all(ok)) {
    fp_data_abort(sprintf("'%s' has non-numeric column(s) %s where numbers were expected",
                          path, paste(shQuote(names(df)[!ok]), collapse = ", ")))
  }
  x <- as.matrix(df)
  storage.mode(x) <- "double"
  if (anyNA(x)) fp_data_abort(sprintf("'%s' has %d missing value(s) in numeric columns", path, sum(is.na(x))))
  x
}

# Group factor from codes, with the levels in `levels` order; errors on unknown codes.
fp_data_group <- function(codes, values, levels, path, column) {
  idx <- match(codes, values)
  if (anyNA(idx)) {
    bad <- unique(codes[is.na(idx)])
    fp_data_abort(sprintf("'%s': column %s has unexpected value(s) %s (expected %s)", path, column,
                          paste(utils::head(bad, 5), collapse = ", "), paste(values, collapse = ", ")))
  }
  factor(levels[idx], levels = levels)
}

# Column standardisation; divisor n (population) or n - 1. Constant columns are only centred.
fp_data_standardise <- function(x, population = FALSE) {
  n <- nrow(x)
  mu <- colMeans(x)
  x <- sweep(x, 2L, mu)
  s <- sqrt(colSums(x^2) / if (population) n else (n - 1))
  s[s == 0] <- 1
  sweep(x, 2L, s, "/")
}

fp_data_center_groups <- function(x, group) {
  for (g in levels(group)) {
    i <- which(group == g)
    x[i, ] <- sweep(x[i, , drop = FALSE], 2L, colMeans(x[i, , drop = FALSE]))
  }
  x
}

# One-hot encoding in the column order of pandas.get_dummies: the non-character columns in their
# order, then for each character column (in order) one indicator per level, levels sorted in
# C-locale order, named `column_level`.
fp_data_onehot <- function(df) {
  is_chr <- vapply(df, function(v) is.character(v) || is.factor(v), logical(1))
  num <- df[!is_chr]
  blocks <- lapply(names(df)[is_chr], function(nm) {
    v <- as.character(df[[nm]])
    lev <- sort(unique(v), method = "radix")
    m <- outer(v, lev, "==") * 1
    colnames(m) <- paste0(nm, "_", lev)
    m
  })
  out <- as.matrix(num)
  storage.mode(out) <- "double"
  if (length(blocks)) out <- cbind(out, do.call(cbind, blocks))
  out
}

fp_data_integer_codes <- function(df) {
  for (nm in names(df)) {
    v <- df[[nm]]
    if (is.character(v) || is.factor(v)) {
      v <- as.character(v)
      df[[nm]] <- match(v, sort(unique(v), method = "radix")) - 1
    }
  }
  x <- as.matrix(df)
  storage.mode(x) <- "double"
  x
}

fp_check_split <- function(split) {
  if (!is.numeric(split) || length(split) != 1L || is.na(split) || split != round(split) ||
      split < 0 || split > 9) {
    fp_abort("must be a whole number from 0 to 9", "split")
  }
  as.integer(split)
}

fp_check_digits <- function(digits) {
  if (is.null(digits)) return(NULL)
  if (!is.numeric(digits) || length(digits) != 1L || is.na(digits) || digits != round(digits) ||
      digits < 0) {
    fp_abort("must be NULL or a whole number >= 0", "digits")
  }
  as.integer(digits)
}

new_fairproj_data <- function(x, group, y, spec, files, preprocessing, options, notes = NULL,
                              extra = list()) {
  stopifnot(is.matrix(x), is.double(x), !is.null(colnames(x)), is.factor(group),
            length(group) == nrow(x), is.null(y) || length(y) == nrow(x))
  rownames(x) <- NULL
  info <- c(list(name = spec$name, title = spec$title, source = spec$source,
                 citation = spec$citation, used_by = spec$used_by, files = unname(files),
                 group = spec$group, preprocessing = preprocessing, options = options,
                 notes = c(spec$note, notes)), extra)
  structure(list(x = x, group = group, y = y, info = info), class = "fairproj_data")
}

# ---------------------------------------------------------------------------------------------
# Samadi et al.: credit and LFW
# ---------------------------------------------------------------------------------------------

fp_read_samadi_credit <- function(spec, dir, standardise = TRUE, all_features = FALSE,
                                  center_groups = FALSE) {
  fp_check_flag(standardise, "standardise")
  fp_check_flag(all_features, "all_features")
  fp_check_flag(center_groups, "center_groups")
  path <- fp_data_file(spec, dir, spec$files)
  # two header rows: UCI X-codes, then names
  df <- fp_data_read_csv(path, skip = 1L, check.names = FALSE)
  feats <- c("SEX", "LIMIT_BAL", "MARRIAGE", "AGE", paste0("PAY_", 1:6), paste0("BILL_AMT", 1:6),
             paste0("PAY_AMT", 1:6))
  fp_data_check_cols(df, c("EDUCATION", feats), path)
  if (!all_features) feats <- setdiff(feats, "PAY_AMT6")
  x <- fp_data_numeric(df[feats], path)
  edu <- df$EDUCATION
  group <- factor(ifelse(edu %in% c(1, 2), "high", "low"), levels = spec$levels)
  pre <- c(sprintf("features: %s (%d columns%s)", paste(feats[c(1, length(feats))], collapse = " ... "),
                   length(feats), if (all_features) ", PAY_AMT6 kept" else
                     ", PAY_AMT6 dropped as in Samadi et al.'s creditProcess.m"),
           "group: EDUCATION in {1 graduate school, 2 university} = high, other codes = low")
  if (standardise) {
    x <- fp_data_standardise(x, population = FALSE)
    pre <- c(pre, "each column centred and divided by its standard deviation (divisor n - 1, MATLAB std)")
  }
  if (center_groups) {
    x <- fp_data_center_groups(x, group)
    pre <- c(pre, "each group's rows centred at the group mean")
  }
  new_fairproj_data(x, group, NULL, spec, path, pre,
                    list(standardise = standardise, all_features = all_features,
                         center_groups = center_groups),
                    notes = "Samadi et al.'s own group-centring loop for credit centres only the first 21 rows of each group (a bug); the package's fair PCA methods centre each group at its own mean.")
}

# The raw LFW matrix of integers k (pixel = k / 3), 13232 x 1764, and the sex codes.
fp_lfw_raw <- function(spec, dir) {
  path <- fp_data_file(spec, dir, "lfw/lfw_1764.csv.xz")
  spath <- fp_data_file(spec, dir, "lfw/sex.txt")
  con <- file(path, "r")
  vals <- tryCatch(scan(con, what = integer(), sep = ",", quiet = TRUE),
                   error = function(e) e, finally = close(con))
  if (inherits(vals, "error")) fp_data_abort(sprintf("could not parse '%s': %s", path, conditionMessage(vals)))
  if (length(vals) %% 1764L != 0L) {
    fp_data_abort(sprintf("'%s' holds %d values, not a multiple of 1764 pixels", path, length(vals)))
  }
  X <- matrix(vals, ncol = 1764L, byrow = TRUE)
  sex <- scan(spath, what = integer(), quiet = TRUE)
  if (length(sex) != nrow(X)) {
    fp_data_abort(sprintf("'%s' has %d lines but '%s' has %d images", spath, length(sex), path, nrow(X)))
  }
  list(X = X, sex = sex, files = c(path, spath))
}

fp_lfw_colnames <- function(nr, nc) {
  sprintf("p%02d_%02d", rep(seq_len(nr), each = nc), rep(seq_len(nc), times = nr))
}

fp_read_lfw <- function(spec, dir, scale = TRUE, exact = FALSE, center_groups = FALSE) {
  fp_check_flag(scale, "scale")
  fp_check_flag(exact, "exact")
  fp_check_flag(center_groups, "center_groups")
  raw <- fp_lfw_raw(spec, dir)
  files <- raw$files
  if (exact) {
    vpath <- fp_data_file(spec, dir, "lfw/value_map.csv")
    vm <- fp_data_read_csv(vpath, colClasses = c("integer", "character"))
    lut <- numeric(max(vm$k) + 1L)
    lut[vm$k + 1L] <- as.numeric(vm$original_text)
    x <- matrix(lut[raw$X + 1L], nrow(raw$X))
    files <- c(files, vpath)
    pre <- "pixel values: the original float32 text values (value_map.csv)"
  } else {
    x <- raw$X / 3
    pre <- "pixel values: k / 3 from the stored integers k (within 3.4e-6 of the original float32 text)"
  }
  if (scale) {
    x <- x / 255
    pre <- c(pre, "each pixel value divided by 255 (Samadi et al.)")
  }
  colnames(x) <- fp_lfw_colnames(49L, 36L)
  group <- fp_data_group(raw$sex, c(0L, 1L), spec$levels, files[2], "sex")
  if (center_groups) {
    x <- fp_data_center_groups(x, group)
    pre <- c(pre, "each group's rows centred at the group mean (Samadi et al.'s LFW script)")
  }
  out <- new_fairproj_data(x, group, NULL, spec, files, c(pre, "columns: pixel (row, column) of the 49 x 36 image, row-major"),
                           list(scale = scale, exact = exact, center_groups = center_groups))
  out$attributes <- fp_lfw_attributes(dir, group)
  out
}

# The attributes the LFW data offer beside sex: the binary race flags of lfw/asian.txt,
# black.txt and white.txt (same row order; they overlap), for intersectional groups, e.g.
# fair_pca(d$x, d$attributes[c("sex", "white")]). NULL when the files are absent.
fp_lfw_attributes <- function(dir, group) {
  flags <- c("asian", "black", "white")
  paths <- file.path(dir, "lfw", paste0(flags, ".txt"))
  if (!all(file.exists(paths))) return(NULL)
  vals <- lapply(paths, function(p) scan(p, what = integer(), quiet = TRUE))
  if (any(lengths(vals) != length(group)) || any(!unlist(vals) %in% c(0L, 1L))) {
    fp_data_abort("the LFW race flag files do not match the images (one 0/1 value per image expected)")
  }
  names(vals) <- flags
  data.frame(sex = group, lapply(vals, function(v) factor(v, levels = c(0L, 1L), labels = c("no", "yes"))))
}

# Area-averaging weights resizing n_in pixels to n_out: row j = output pixel, entries = share of
# each input pixel in the output cell (rows sum to 1).
fp_area_weights <- function(n_in, n_out) {
  w <- matrix(0, n_out, n_in)
  r <- n_in / n_out
  for (j in seq_len(n_out)) {
    lo <- (j - 1) * r
    hi <- j * r
    i <- seq_len(n_in)
    w[j, ] <- pmax(0, pmin(hi, i) - pmax(lo, i - 1)) / r
  }
  w
}

# Resize images stored as rows (row-major nr x nc pixels) to mr x mc by area averaging, one
# image dimension at a time.
fp_resize_rows <- function(X, nr, nc, mr, mc) {
  n <- nrow(X)
  Wr <- fp_area_weights(nr, mr)
  Wc <- fp_area_weights(nc, mc)
  # t(X): column i = image i, pixel (r, c) at (r - 1) * nc + c, so columns of `a` are image rows
  a <- Wc %*% matrix(t(X), nrow = nc)                      # mc x (nr * n)
  a <- aperm(array(a, c(mc, nr, n)), c(2L, 1L, 3L))        # nr x mc x n
  a <- Wr %*% matrix(a, nrow = nr)                         # mr x (mc * n)
  a <- aperm(array(a, c(mr, mc, n)), c(2L, 1L, 3L))        # mc x mr x n: row-major per image
  t(matrix(a, nrow = mc * mr))
}

fp_read_lfw576 <- function(spec, dir, n_per_group = 2000L, seed = 1L, size = 24L, scale = TRUE) {
  fp_check_flag(scale, "scale")
  n_per_group <- fp_check_count(n_per_group, 1L, 2962L, "n_per_group")
  size <- fp_check_count(size, 1L, 36L, "size")
  if (!is.numeric(seed) || length(seed) != 1L || is.na(seed) || seed != round(seed)) {
    fp_abort("must be a single whole number", "seed")
  }
  raw <- fp_lfw_raw(spec, dir)
  f <- which(raw$sex == 0L)
  m <- which(raw$sex == 1L)
  if (length(f) < n_per_group || length(m) < n_per_group) {
    fp_data_abort(sprintf("the LFW file has %d female and %d male images, fewer than n_per_group = %d",
                          length(f), length(m), n_per_group))
  }
  # draw with a local, fully specified RNG; restore the session's random state afterwards
  old_kind <- RNGkind()
  had_seed <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had_seed) old_seed <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit({
    RNGkind(old_kind[1], old_kind[2], old_kind[3])
    if (had_seed) assign(".Random.seed", old_seed, envir = globalenv())
    else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
      rm(".Random.seed", envir = globalenv())
    }
  }, add = TRUE)
  set.seed(seed, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  sel_f <- f[sample.int(length(f), n_per_group)]
  sel_m <- m[sample.int(length(m), n_per_group)]
  rows <- sort(c(sel_f, sel_m))
  x <- fp_resize_rows(raw$X[rows, , drop = FALSE] / 3, 49L, 36L, size, size)
  pre <- c(sprintf("rows: %d female + %d male images drawn without replacement, set.seed(%d, kind = 'Mersenne-Twister', sample.kind = 'Rejection'); female draw first; original row order kept (info$rows)",
                   n_per_group, n_per_group, as.integer(seed)),
           "pixel values: k / 3 from the stored integers k",
           sprintf("each 49 x 36 image resized to %d x %d by area averaging (output pixel = overlap-weighted mean of the input pixels in its cell)", size, size))
  if (scale) {
    x <- x / 255
    pre <- c(pre, "each pixel value divided by 255 (Samadi et al.)")
  }
  colnames(x) <- fp_lfw_colnames(size, size)
  group <- factor(spec$levels[raw$sex[rows] + 1L], levels = spec$levels)
  spec$n <- 2L * n_per_group
  new_fairproj_data(x, group, NULL, spec, raw$files, pre,
                    list(n_per_group = n_per_group, seed = seed, size = size, scale = scale),
                    extra = list(rows = rows))
}

# ---------------------------------------------------------------------------------------------
# Olfat & Aswani / Vu et al. (DRFPCA Table 2)
# ---------------------------------------------------------------------------------------------

fp_read_olfat <- function(spec, dir, standardise = TRUE, drop_constant = TRUE, version = NULL) {
  fp_check_flag(standardise, "standardise")
  fp_check_flag(drop_constant, "drop_constant")
  file <- spec$files
  notes <- NULL
  if (!is.null(version)) {
    if (spec$name != "skillcraft") fp_abort("is only an option of 'skillcraft'", "version")
    version <- fp_match_arg(version, c("drfpca", "olfat"), "version")
    if (version == "olfat") {
      file <- "olfat/SkillCraft_Data.csv.xz"
      spec$files <- file
    }
  }
  path <- fp_data_file(spec, dir, file)
  df <- fp_data_read_csv(path, check.names = FALSE)
  names(df) <- gsub("\"", "", names(df), fixed = TRUE)
  p <- ncol(df)
  if (p < 3L) fp_data_abort(sprintf("'%s' has %d columns; expected features, a label and the sensitive attribute", path, p))
  x <- fp_data_numeric(df[seq_len(p - 2L)], path)
  y <- as.numeric(df[[p - 1L]])
  s <- df[[p]]
  group <- fp_data_group(s, c(0, 1), spec$levels, path, sprintf("'%s' (last)", names(df)[p]))
  pre <- sprintf("features: all columns but the last two (label '%s', sensitive '%s')",
                 names(df)[p - 1L], names(df)[p])
  dropped <- character(0)
  if (drop_constant) {
    sds <- apply(x, 2L, stats::sd)
    dropped <- colnames(x)[sds == 0]
    if (spec$name == "steel") dropped <- c(dropped, intersect(c("perimX", "perimY"), colnames(x)))
    if (length(dropped)) {
      x <- x[, setdiff(colnames(x), dropped), drop = FALSE]
      pre <- c(pre, sprintf("dropped %s (%s), as the Vu et al. code does", paste(dropped, collapse = ", "),
                            if (spec$name == "steel") "constant columns and perimX, perimY" else "constant"))
    }
  }
  if (standardise) {
    x <- fp_data_standardise(x, population = TRUE)
    pre <- c(pre, "each column centred and divided by its population standard deviation (divisor n), as the Vu et al. code does (it uses the training rows' statistics)")
  }
  new_fairproj_data(x, group, y, spec, path, pre,
                    list(standardise = standardise, drop_constant = drop_constant,
                         version = version),
                    notes = notes, extra = list(dropped = dropped))
}

# ---------------------------------------------------------------------------------------------
# Lee et al. splits (Kleindessner et al.)
# ---------------------------------------------------------------------------------------------

fp_lee_protected_col <- c(Adult = 3L, COMPAS = 2L, German = 5L)

fp_read_lee <- function(spec, dir, split = 0L, part = c("train", "test", "full"),
                        drop_protected = FALSE) {
  split <- fp_check_split(split)
  part <- fp_match_arg(part, c("train", "test", "full"), "part")
  fp_check_flag(drop_protected, "drop_protected")
  rel <- if (part == "full") sprintf("lee/%s/full.csv.xz", spec$folder) else
    sprintf("lee/%s/%s_%d.csv.xz", spec$folder, part, split)
  path <- fp_data_file(spec, dir, rel)
  df <- fp_data_read_csv(path, header = FALSE)
  m <- fp_data_numeric(df, path)
  p <- ncol(m)
  d <- p - 2L
  x <- m[, seq_len(d), drop = FALSE]
  if (spec$folder == "COMPAS" && d == 11L) {
    colnames(x) <- c("age", "race", "juv_fel_count", "juv_misd_count", "juv_other_count",
                     "priors_count", "age_cat_25_45", "age_cat_over_45", "age_cat_under_25",
                     "c_charge_degree_F", "c_charge_degree_M")
  } else {
    colnames(x) <- paste0("x", seq_len(d))
  }
  prot <- fp_lee_protected_col[[spec$folder]]
  group <- fp_data_group(m[, p], c(0, 1), spec$levels, path, "last")
  pre <- c(sprintf("file %s: columns [features, label, sensitive]; %s", basename(rel),
                   if (part == "full") "features not standardised" else
                     sprintf("features standardised by Lee et al. with the training statistics of split %d", split)),
           sprintf("feature column %d is the protected attribute (kept as a feature, as in Lee et al. and Kleindessner et al.)", prot))
  if (drop_protected) {
    x <- x[, -prot, drop = FALSE]
    pre <- c(pre, sprintf("feature column %d (protected attribute) dropped", prot))
  }
  new_fairproj_data(x, group, m[, p - 1L], spec, path, pre,
                    list(split = split, part = part, drop_protected = drop_protected),
                    extra = list(split = split, part = part))
}

# ---------------------------------------------------------------------------------------------
# Fair CSS (Matakos et al.)
# ---------------------------------------------------------------------------------------------

fp_pandas_na <- c("", "NA", "N/A", "NaN", "nan", "-NaN", "-nan", "null", "NULL", "n/a", "#N/A",
                  "#NA", "<NA>", "-1.#IND", "1.#IND", "-1.#QNAN", "1.#QNAN", "#N/A N/A")

fp_adult_names <- c("age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
                    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
                    "hours-per-week", "native-country", "income")

fp_read_adult_data <- function(spec, dir, test = FALSE) {
  path <- fp_data_file(spec, dir, if (test) "css/adult.test.xz" else "css/adult.data.xz")
  # adult.test starts with a line "|1x3 Cross validator" and ends its labels with a full stop
  df <- fp_data_read_csv(path, header = FALSE, strip.white = TRUE, col.names = fp_adult_names,
                         check.names = FALSE, stringsAsFactors = FALSE, na.strings = character(0),
                         blank.lines.skip = TRUE, skip = if (test) 1L else 0L)
  if (ncol(df) != 15L) fp_data_abort(sprintf("'%s' should have 15 columns, has %d", path, ncol(df)))
  if (test) df$income <- sub("\\.$", "", df$income)
  list(df = df, path = path)
}

fp_read_css <- function(spec, dir, normalise = TRUE, digits = 5L) {
  fp_check_flag(normalise, "normalise")
  digits <- fp_check_digits(digits)
  name <- spec$name
  extra <- list()
  files <- character(0)
  pre <- character(0)
  if (name == "css_heart") {
    path <- fp_data_file(spec, dir, spec$files)
    df <- fp_data_read_csv(path, header = FALSE, na.strings = "?",
                           col.names = c("age", "sex", "cp", "trestbps", "chol", "fbs", "restecg",
                                         "thalach", "exang", "oldpeak", "slope", "ca", "thal", "num"))
    keep <- stats::complete.cases(df)
    df <- df[keep, , drop = FALSE]
    pre <- sprintf("dropped %d rows with a missing value ('?')", sum(!keep))
    code <- df$sex
    group <- fp_data_group(code, c(1, 0), spec$levels, path, "sex")
    df$sex <- NULL
    y <- as.numeric(df$num)
    files <- path
  } else if (name == "css_german") {
    path <- fp_data_file(spec, dir, spec$files)
    df <- fp_data_read_csv(path, header = FALSE, sep = " ", stringsAsFactors = FALSE,
                           col.names = c("checkingAcc", "durMonth", "creditHist", "purpose",
                                         "creditAmt", "savingsAcc", "employmentSince", "instalRate",
                                         "personalStatus", "otherDebtors", "recidenceSize",
                                         "property", "age", "instalPlans", "housing",
                                         "numOfCreditCards", "job", "dependents", "telephone",
                                         "foreignWorker", "decision"))
    if (ncol(df) != 21L) fp_data_abort(sprintf("'%s' should have 21 columns, has %d", path, ncol(df)))
    female <- df$personalStatus %in% c("A92", "A95")
    group <- factor(ifelse(female, "female", "male"), levels = spec$levels)
    pre <- "sex derived from personal status: A92 or A95 = female, otherwise male"
    y <- as.numeric(df$decision)
    files <- path
  } else if (name == "css_credit") {
    path <- fp_data_file(spec, dir, spec$files)
    df <- fp_data_read_csv(path, check.names = FALSE)
    fp_data_check_cols(df, "SEX", path)
    group <- fp_data_group(df$SEX, c(2, 1), spec$levels, path, "SEX")
    df$SEX <- NULL
    y <- if ("default.payment.next.month" %in% names(df)) as.numeric(df[["default.payment.next.month"]]) else NULL
    pre <- "all columns of the UCI file kept, including ID and the label (the authors' column count)"
    files <- path
  } else if (name == "css_student") {
    path <- fp_data_file(spec, dir, spec$files)
    df <- fp_data_read_csv(path, sep = ";", stringsAsFactors = FALSE)
    fp_data_check_cols(df, c("sex", "G3"), path)
    group <- fp_data_group(df$sex, c("M", "F"), spec$levels, path, "sex")
    df$sex <- NULL
    y <- as.numeric(df$G3)
    files <- path
  } else if (name == "css_adult") {
    a <- fp_read_adult_data(spec, dir)
    df <- a$df
    group <- fp_data_group(df$sex, c("Male", "Female"), spec$levels, a$path, "sex")
    df$sex <- NULL
    y <- as.numeric(df$income == ">50K")
    pre <- "column names from adult.names; '?' kept as a category (as pandas reads it)"
    files <- a$path
  } else if (name == "css_compas") {
    path <- fp_data_file(spec, dir, spec$files)
    raw <- fp_data_read_csv(path, stringsAsFactors = FALSE, na.strings = fp_pandas_na,
                            check.names = TRUE)
    dates <- c("compas_screening_date", "dob", "c_jail_in", "c_jail_out", "c_offense_date",
               "vr_offense_date", "v_screening_date", "screening_date")
    keep <- c(dates, "sex", "age", "age_cat", "race", "juv_fel_count", "decile_score",
              "juv_misd_count", "juv_other_count", "priors_count", "days_b_screening_arrest",
              "c_days_from_compas", "c_charge_degree", "c_charge_desc", "is_recid",
              "r_charge_degree", "is_violent_recid", "v_type_of_assessment", "v_decile_score",
              "v_score_text", "type_of_assessment", "decile_score.1", "score_text")
    fp_data_check_cols(raw, keep, path)
    base <- as.Date("1900-01-01")
    for (nm in dates) {
      v <- as.Date(substr(raw[[nm]], 1L, 10L), format = "%Y-%m-%d")
      raw[[nm]] <- as.numeric(v - base)
    }
    df <- raw[keep]
    ok <- stats::complete.cases(df)
    # the evidence for the row count (Table 1 of the paper counts the raw rows)
    extra <- list(raw_rows = nrow(raw), raw_group_sizes = c(table(factor(raw$sex, levels = c("Male", "Female")))),
                  missing_by_column = colSums(is.na(df)))
    df <- df[ok, , drop = FALSE]
    pre <- c("8 date columns converted to days since 1900-01-01",
             "the 30 columns of the authors' loader kept",
             sprintf("dropped %d of %d rows with a missing value", sum(!ok), length(ok)))
    group <- fp_data_group(df$sex, c("Male", "Female"), spec$levels, path, "sex")
    df$sex <- NULL
    y <- as.numeric(df$is_recid)
    files <- path
  } else if (name == "css_communities") {
    path <- fp_data_file(spec, dir, spec$files[1])
    npath <- fp_data_file(spec, dir, spec$files[2])
    nl <- readLines(npath, warn = FALSE)
    at <- grep("^@attribute", nl, value = TRUE)
    cn <- vapply(strsplit(at, "[[:space:]]+"), `[`, "", 2L)
    if (length(cn) != 128L) fp_data_abort(sprintf("'%s' should list 128 @attribute lines, has %d", npath, length(cn)))
    df <- fp_data_read_csv(path, header = FALSE, na.strings = "?", col.names = cn,
                           check.names = FALSE, stringsAsFactors = FALSE)
    police <- c("LemasSwornFT", "LemasSwFTPerPop", "LemasSwFTFieldOps", "LemasSwFTFieldPerPop",
                "LemasTotalReq", "LemasTotReqPerPop", "PolicReqPerOffic", "PolicPerPop",
                "RacialMatchCommPol", "PctPolicWhite", "PctPolicBlack", "PctPolicHisp",
                "PctPolicAsian", "PctPolicMinor", "OfficAssgnDrugUnits", "NumKindsDrugsSeiz",
                "PolicAveOTWorked", "PolicCars", "PolicOperBudg", "LemasPctPolicOnPatr",
                "LemasGangUnitDeploy", "PolicBudgPerPop")
    drop <- c("county", "community", "communityname", police)
    fp_data_check_cols(df, c(drop, "racePctWhite", "racepctblack", "ViolentCrimesPerPop"), path)
    df <- df[setdiff(names(df), drop)]
    nas <- sum(is.na(df))
    df[is.na(df)] <- 0
    white <- df$racePctWhite >= 0.5
    group <- factor(ifelse(white, spec$levels[1], spec$levels[2]), levels = spec$levels)
    df$racePctWhite <- NULL
    df$racepctblack <- NULL
    y <- as.numeric(df$ViolentCrimesPerPop)
    pre <- c("column names from the @attribute lines of communities.names",
             "dropped county, community, communityname and the 22 LEMAS/police columns",
             sprintf("%d missing values ('?') set to 0", nas),
             "groups: racePctWhite >= 0.5; then racePctWhite and racepctblack dropped")
    files <- c(path, npath)
  }
  x <- fp_data_onehot(df)
  if (any(vapply(df, is.character, logical(1)))) {
    pre <- c(pre, "categorical columns one-hot encoded (numeric columns first, then indicators; pandas.get_dummies order)")
  }
  pre <- c(pre, "protected attribute dropped; label column(s) kept as features, as in the authors' code")
  if (anyNA(x)) fp_data_abort(sprintf("missing values remain in '%s'", files[1]))
  if (normalise) {
    for (g in levels(group)) {
      i <- which(group == g)
      nr <- sqrt(colSums(x[i, , drop = FALSE]^2))
      nr[nr == 0] <- 1
      x[i, ] <- sweep(x[i, , drop = FALSE], 2L, nr, "/")
    }
    pre <- c(pre, "each group's columns scaled to unit Euclidean norm within the group (all-zero columns stay zero)")
    if (!is.null(digits)) {
      x <- round(x, digits)
      pre <- c(pre, sprintf("rounded to %d decimals", digits))
    }
  }
  new_fairproj_data(x, group, y, spec, files, pre, list(normalise = normalise, digits = digits), extra = extra)
}

# ---------------------------------------------------------------------------------------------
# Kamani et al. multi-group data
# ---------------------------------------------------------------------------------------------

fp_read_kamani_adult <- function(spec, dir, standardise = TRUE, encoding = c("integer", "onehot"),
                                 part = c("train", "test")) {
  fp_check_flag(standardise, "standardise")
  encoding <- fp_match_arg(encoding, c("integer", "onehot"), "encoding")
  part <- fp_match_arg(part, c("train", "test"), "part")
  a <- fp_read_adult_data(spec, dir)
  df <- a$df
  df$income <- NULL
  # the codes (and the standardisation) of the test file are those of the training file
  lev <- lapply(df, function(v) if (is.character(v)) sort(unique(v), method = "radix") else NULL)
  src <- "adult.data"
  path <- a$path
  if (part == "test") {
    train <- df
    a <- fp_read_adult_data(spec, dir, test = TRUE)
    df <- a$df
    df$income <- NULL
    path <- a$path
    src <- "adult.test (the official test file; codes and standardisation of adult.data)"
  }
  attr <- if (spec$name == "adult_race") "race" else "sex"
  group <- fp_data_group(df[[attr]], spec$levels, spec$levels, path, attr)
  y <- as.numeric(a$df$income == ">50K")
  code <- function(d) {
    if (encoding == "integer") {
      for (nm in names(d)) if (!is.null(lev[[nm]])) d[[nm]] <- match(d[[nm]], lev[[nm]]) - 1
      x <- as.matrix(d)
      storage.mode(x) <- "double"
    } else {
      num <- as.matrix(d[vapply(lev, is.null, logical(1))])
      storage.mode(num) <- "double"
      blocks <- lapply(names(d)[!vapply(lev, is.null, logical(1))], function(nm) {
        m <- outer(d[[nm]], lev[[nm]], "==") * 1
        colnames(m) <- paste0(nm, "_", lev[[nm]])
        m
      })
      x <- cbind(num, do.call(cbind, blocks))
    }
    x
  }
  x <- code(df)
  if (anyNA(x)) {
    bad <- names(which(colSums(is.na(x)) > 0))
    fp_data_abort(sprintf("'%s' has levels not in adult.data in column(s) %s", path, paste(bad, collapse = ", ")))
  }
  pre <- sprintf("the 14 features of %s (label dropped; sex and race kept); categorical columns %s", src,
                 if (encoding == "integer") "coded as integers 0, 1, ... in sorted level order" else "one-hot encoded")
  if (standardise) {
    xt <- if (part == "test") code(train) else x
    mu <- colMeans(xt)
    sdv <- sqrt(colSums(sweep(xt, 2L, mu)^2) / (nrow(xt) - 1))
    sdv[sdv == 0] <- 1
    x <- sweep(sweep(x, 2L, mu), 2L, sdv, "/")
    pre <- c(pre, sprintf("each column centred and divided by its standard deviation (divisor n - 1)%s",
                          if (part == "test") ", both of adult.data" else ""))
  }
  if (part == "test") spec$n <- nrow(x)
  new_fairproj_data(x, group, y, spec, path, pre,
                    list(standardise = standardise, encoding = encoding, part = part))
}

fp_read_kamani_credit <- function(spec, dir, standardise = TRUE, drop_unknown = TRUE) {
  fp_check_flag(standardise, "standardise")
  fp_check_flag(drop_unknown, "drop_unknown")
  path <- fp_data_file(spec, dir, spec$files)
  df <- fp_data_read_csv(path, check.names = FALSE)
  lab <- "default.payment.next.month"
  fp_data_check_cols(df, c("ID", "SEX", "MARRIAGE", lab), path)
  pre <- "the 23 UCI features (ID and label dropped; SEX and MARRIAGE kept)"
  if (spec$name == "credit_marriage") {
    if (drop_unknown) {
      keep <- df$MARRIAGE %in% c(1, 2, 3)
      pre <- c(pre, sprintf("dropped %d rows with MARRIAGE not in 1, 2, 3", sum(!keep)))
      df <- df[keep, , drop = FALSE]
      group <- fp_data_group(df$MARRIAGE, c(1, 2, 3), spec$levels, path, "MARRIAGE")
    } else {
      lev <- c(spec$levels, "unknown")
      group <- factor(lev[match(df$MARRIAGE, c(1, 2, 3), nomatch = 4L)], levels = lev)
      pre <- c(pre, "MARRIAGE codes other than 1, 2, 3 form the group 'unknown'")
    }
  } else {
    group <- fp_data_group(df$SEX, c(2, 1), spec$levels, path, "SEX")
  }
  y <- as.numeric(df[[lab]])
  x <- fp_data_numeric(df[setdiff(names(df), c("ID", lab))], path)
  if (standardise) {
    x <- fp_data_standardise(x)
    pre <- c(pre, "each column centred and divided by its standard deviation (divisor n - 1)")
  }
  new_fairproj_data(x, group, y, spec, path, pre,
                    list(standardise = standardise, drop_unknown = drop_unknown))
}
