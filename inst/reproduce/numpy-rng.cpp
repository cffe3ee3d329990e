// numpy's random streams, reimplemented from their published algorithms so that the
// reproduction scripts can draw the same train/test splits and cross-validation folds as the
// papers' Python code (inst/reproduce/vu-common.R compiles this file with Rcpp::sourceCpp()):
//   * numpy.random.default_rng(seed): SeedSequence(seed) (entropy pool of 4 words, hashmix /
//     mix mixing) -> PCG64 (128-bit LCG, XSL-RR output, seeded by pcg setseq srandom);
//   * numpy.random.RandomState(seed) (the legacy stream sklearn's KFold uses): MT19937 seeded
//     by init_genrand;
//   * shuffle of a 1-d array (Generator.shuffle, RandomState.shuffle): Fisher-Yates from the
//     last position down, j = random_interval(i) (the smallest bit mask >= i, rejection of
//     values above i; 32-bit draws while i fits 32 bits).
// Not part of the package: only the reproduction scripts use it.
// Checked against numpy's documented streams: default_rng(0).random(3) = 0.6369616873214543,
// 0.2697867137638703, 0.04097352393619469; default_rng(42).random() = 0.7739560485559633;
// RandomState(0).random_sample(2) = 0.5488135039273248, 0.7151893663724195;
// RandomState(42).permutation(10) = 8 1 5 0 7 2 9 4 3 6; RandomState(0).permutation(10) =
// 2 8 4 9 1 6 7 3 0 5 (np_randomstate_random(), np_randomstate_shuffle() here).
#include <Rcpp.h>
#include <cstdint>
#include <vector>

namespace {

typedef unsigned __int128 u128;

// ---- SeedSequence -------------------------------------------------------------------------
const uint32_t INIT_A = 0x43b0d7e5u, MULT_A = 0x931e8875u, INIT_B = 0x8b51f9ddu, MULT_B = 0x58f38dedu,
               MIX_MULT_L = 0xca01f9ddu, MIX_MULT_R = 0x4973f715u;
const int XSHIFT = 16, POOL = 4;

uint32_t hashmix(uint32_t value, uint32_t& hc) {
  value ^= hc;
  hc *= MULT_A;
  value *= hc;
  value ^= value >> XSHIFT;
  return value;
}

uint32_t mixw(uint32_t x, uint32_t y) {
  uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y;
  r ^= r >> XSHIFT;
  return r;
}

std::vector<uint32_t> seed_sequence_pool(uint64_t seed) {
  std::vector<uint32_t> entropy;
  if (seed == 0) entropy.push_back(0);
  while (seed > 0) {
    entropy.push_back(static_cast<uint32_t>(seed & 0xffffffffu));
    seed >>= 32;
  }
  std::vector<uint32_t> pool(POOL);
  uint32_t hc = INIT_A;
  for (int i = 0; i < POOL; ++i) pool[i] = hashmix(i < static_cast<int>(entropy.size()) ? entropy[i] : 0u, hc);
  for (int s = 0; s < POOL; ++s)
    for (int d = 0; d < POOL; ++d)
      if (s != d) pool[d] = mixw(pool[d], hashmix(pool[s], hc));
  for (size_t s = POOL; s < entropy.size(); ++s)
    for (int d = 0; d < POOL; ++d) pool[d] = mixw(pool[d], hashmix(entropy[s], hc));
  return pool;
}

// generate_state(n, uint64): 2n 32-bit words, paired little-endian into n 64-bit words
std::vector<uint64_t> generate_state64(const std::vector<uint32_t>& pool, int n) {
  std::vector<uint32_t> w(2 * n);
  uint32_t hc = INIT_B;
  for (int i = 0; i < 2 * n; ++i) {
    uint32_t v = pool[i % POOL];
    v ^= hc;
    hc *= MULT_B;
    v *= hc;
    v ^= v >> XSHIFT;
    w[i] = v;
  }
  std::vector<uint64_t> out(n);
  for (int i = 0; i < n; ++i) out[i] = static_cast<uint64_t>(w[2 * i]) | (static_cast<uint64_t>(w[2 * i + 1]) << 32);
  return out;
}

// ---- PCG64 --------------------------------------------------------------------------------
struct Pcg64 {
  u128 state, inc;
  bool has32;
  uint32_t saved;
  static u128 mult() { return (static_cast<u128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL; }
  void step() { state = state * mult() + inc; }
  explicit Pcg64(uint64_t seed) : has32(false), saved(0) {
    std::vector<uint64_t> v = generate_state64(seed_sequence_pool(seed), 4);
    u128 s = (static_cast<u128>(v[0]) << 64) | v[1];
    u128 i = (static_cast<u128>(v[2]) << 64) | v[3];
    state = 0;
    inc = (i << 1) | 1;
    step();
    state += s;
    step();
  }
  uint64_t next64() {
    step();
    uint64_t hi = static_cast<uint64_t>(state >> 64), lo = static_cast<uint64_t>(state);
    unsigned rot = static_cast<unsigned>(state >> 122);
    uint64_t x = hi ^ lo;
    return (x >> rot) | (x << ((64 - rot) & 63));
  }
  uint32_t next32() {
    if (has32) {
      has32 = false;
      return saved;
    }
    uint64_t n = next64();
    has32 = true;
    saved = static_cast<uint32_t>(n >> 32);
    return static_cast<uint32_t>(n & 0xffffffffu);
  }
};

// ---- MT19937 (RandomState) ----------------------------------------------------------------
struct Mt19937 {
  uint32_t mt[624];
  int mti;
  explicit Mt19937(uint32_t seed) {
    mt[0] = seed;
    for (mti = 1; mti < 624; ++mti) mt[mti] = 1812433253u * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + mti;
  }
  uint32_t next32() {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    if (mti >= 624) {
      int kk;
      for (kk = 0; kk < 624 - 397; ++kk) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1u];
      }
      for (; kk < 623; ++kk) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1u];
      }
      y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
      mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1u];
      mti = 0;
    }
    y = mt[mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
  }
  uint64_t next64() {
    uint64_t a = next32(), b = next32();
    return (a << 32) | b;
  }
};

template <class G>
uint64_t random_interval(G& g, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max, value;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  if (max <= 0xffffffffULL) {
    while ((value = (g.next32() & mask)) > max) {
    }
  } else {
    while ((value = (g.next64() & mask)) > max) {
    }
  }
  return value;
}

template <class G>
void shuffle_in_place(G& g, Rcpp::IntegerVector& x) {
  for (R_xlen_t i = x.size() - 1; i >= 1; --i) {
    R_xlen_t j = static_cast<R_xlen_t>(random_interval(g, static_cast<uint64_t>(i)));
    std::swap(x[i], x[j]);
  }
}

}  // namespace

// A numpy Generator stream, kept in an external pointer.
// [[Rcpp::export]]
SEXP np_default_rng(double seed) { return Rcpp::XPtr<Pcg64>(new Pcg64(static_cast<uint64_t>(seed)), true); }

// Generator.random(n): doubles in [0, 1)
// [[Rcpp::export]]
Rcpp::NumericVector np_rng_random(SEXP rng, int n) {
  Rcpp::XPtr<Pcg64> g(rng);
  Rcpp::NumericVector out(n);
  for (int i = 0; i < n; ++i) out[i] = static_cast<double>(g->next64() >> 11) * (1.0 / 9007199254740992.0);
  return out;
}

// Generator.shuffle(x) of a 1-d integer array (returns the shuffled copy)
// [[Rcpp::export]]
Rcpp::IntegerVector np_rng_shuffle(SEXP rng, Rcpp::IntegerVector x) {
  Rcpp::XPtr<Pcg64> g(rng);
  Rcpp::IntegerVector y = Rcpp::clone(x);
  shuffle_in_place(*g, y);
  return y;
}

// RandomState(seed).shuffle(x) (fresh state), as sklearn's KFold(shuffle = TRUE, random_state = seed)
// [[Rcpp::export]]
Rcpp::IntegerVector np_randomstate_shuffle(double seed, Rcpp::IntegerVector x) {
  Mt19937 g(static_cast<uint32_t>(seed));
  Rcpp::IntegerVector y = Rcpp::clone(x);
  shuffle_in_place(g, y);
  return y;
}

// RandomState(seed).random_sample(n) (53-bit doubles from two 32-bit draws), for checking
// [[Rcpp::export]]
Rcpp::NumericVector np_randomstate_random(double seed, int n) {
  Mt19937 g(static_cast<uint32_t>(seed));
  Rcpp::NumericVector out(n);
  for (int i = 0; i < n; ++i) {
    uint32_t a = g.next32() >> 5, b = g.next32() >> 6;
    out[i] = (a * 67108864.0 + b) / 9007199254740992.0;
  }
  return out;
}
