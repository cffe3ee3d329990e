// Group coding in one pass: the codes of a character, integer or logical vector of group labels
// by order of first appearance, its distinct values and their counts. R's unique(), match() and
// tabulate() take three passes over the labels (about 40 ms at a million strings, a tenth of a
// fit); group labels are few, so one pass that looks each label up in a small direct-mapped
// cache (then among the distinct labels seen, in a hash table once there are many) is several
// times faster. Strings are compared as R's CHARSXP pointers, which R keeps unique per string
// and encoding; the caller merges labels that differ only in their encoding.
#include <Rcpp.h>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fp {
namespace groups {

// Cache slots: of a label's address (R's strings are unique per content and encoding) or value.
inline unsigned slot_of(const void* s) {
  return static_cast<unsigned>((reinterpret_cast<std::uintptr_t>(s) >> 4) * 0x9E3779B97F4A7C15ull >> 58);
}
inline unsigned slot_of(int v) { return (static_cast<unsigned>(v) * 2654435761u) >> 26; }

// codes[i] in 1..u for the labels p[0..n), u the distinct labels, in `uniq` by first appearance,
// and counts[c - 1] the rows of code c (`counts` is overwritten). A direct-mapped cache of 64 slots (by a hash of the
// label) answers almost every row with one comparison whether the labels come in runs or
// mixed; a miss searches the distinct labels (linearly while they are few, then in a hash table).
template <typename T>
void code_labels(const T* p, std::ptrdiff_t n, int* codes, std::vector<T>& uniq, std::vector<double>& counts) {
  const std::size_t linear_max = 32;
  struct Slot {
    T key;
    int code;
  };
  Slot cache[64];
  for (Slot& sl : cache) sl.code = 0;
  std::unordered_map<T, int> table;
  bool hashed = false;
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const T s = p[i];
    Slot& sl = cache[slot_of(s)];
    int c;
    if (sl.code && sl.key == s) {
      c = sl.code;
    } else {
      c = 0;
      if (hashed) {
        auto it = table.find(s);
        if (it != table.end()) c = it->second;
      } else {
        for (std::size_t j = 0; j < uniq.size(); ++j) {
          if (uniq[j] == s) {
            c = static_cast<int>(j) + 1;
            break;
          }
        }
      }
      if (!c) {
        uniq.push_back(s);
        c = static_cast<int>(uniq.size());
        if (hashed) {
          table.emplace(s, c);
        } else if (uniq.size() > linear_max) {
          hashed = true;
          for (std::size_t j = 0; j < uniq.size(); ++j) table.emplace(uniq[j], static_cast<int>(j) + 1);
        }
      }
      sl.key = s;
      sl.code = c;
    }
    codes[i] = c;
  }
  // the counts in a pass of their own, in four banks: one counter incremented row after row
  // (two groups: the same code most of the time) is a chain of dependent memory updates that
  // cost as much as the coding itself
  const std::size_t u = uniq.size();
  std::vector<std::ptrdiff_t> bank(4 * u, 0);
  std::ptrdiff_t i = 0;
  for (; i + 3 < n; i += 4) {
    ++bank[codes[i] - 1];
    ++bank[u + codes[i + 1] - 1];
    ++bank[2 * u + codes[i + 2] - 1];
    ++bank[3 * u + codes[i + 3] - 1];
  }
  for (; i < n; ++i) ++bank[codes[i] - 1];
  counts.assign(u, 0.0);
  for (std::size_t j = 0; j < u; ++j)
    counts[j] = static_cast<double>(bank[j] + bank[u + j] + bank[2 * u + j] + bank[3 * u + j]);
}

}  // namespace groups
}  // namespace fp

// list(codes = integer codes 1..u by first appearance, uniq = the distinct labels, of the type
// of v, counts = rows per code): for a character, integer or logical vector (NA is a label like
// any other here).
// [[Rcpp::export(.fp_group_codes)]]
Rcpp::List fp_group_codes(SEXP v) {
  const R_xlen_t n = XLENGTH(v);
  Rcpp::IntegerVector codes(Rcpp::no_init(n));
  int* out = INTEGER(codes);
  std::vector<double> counts;
  if (TYPEOF(v) == STRSXP) {
    std::vector<SEXP> uniq;
    fp::groups::code_labels(STRING_PTR_RO(v), n, out, uniq, counts);
    Rcpp::CharacterVector u(uniq.size());
    for (std::size_t j = 0; j < uniq.size(); ++j) SET_STRING_ELT(u, j, uniq[j]);
    return Rcpp::List::create(Rcpp::Named("codes") = codes, Rcpp::Named("uniq") = u,
                              Rcpp::Named("counts") = Rcpp::NumericVector(counts.begin(), counts.end()));
  }
  if (TYPEOF(v) != INTSXP && TYPEOF(v) != LGLSXP) Rcpp::stop("group labels must be character, integer or logical");
  std::vector<int> uniq;
  fp::groups::code_labels(TYPEOF(v) == INTSXP ? INTEGER(v) : LOGICAL(v), n, out, uniq, counts);
  SEXP u = PROTECT(Rf_allocVector(TYPEOF(v), uniq.size()));
  int* up = TYPEOF(v) == INTSXP ? INTEGER(u) : LOGICAL(u);
  for (std::size_t j = 0; j < uniq.size(); ++j) up[j] = uniq[j];
  Rcpp::List res = Rcpp::List::create(Rcpp::Named("codes") = codes, Rcpp::Named("uniq") = u,
                                      Rcpp::Named("counts") = Rcpp::NumericVector(counts.begin(), counts.end()));
  UNPROTECT(1);
  return res;
}

// perm[codes]: the codes renumbered (perm holds the new number of each old code), in place:
// only for the vector that .fp_group_codes() has just returned, which nothing else shares (a
// new vector would cost the allocation and first touch of n integers, as much as the coding).
// [[Rcpp::export(.fp_group_recode_inplace)]]
void fp_group_recode_inplace(SEXP codes, Rcpp::IntegerVector perm) {
  if (TYPEOF(codes) != INTSXP) Rcpp::stop("codes must be an integer vector");
  const R_xlen_t n = XLENGTH(codes);
  const int* p = perm.begin();
  int* c = INTEGER(codes);
  for (R_xlen_t i = 0; i < n; ++i) c[i] = p[c[i] - 1];
}
