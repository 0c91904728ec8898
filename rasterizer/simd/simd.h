// dp2's own thin 8-wide SIMD types: F8 (eight floats), I8 (eight int32; also the masks,
// all ones or all zeros per lane). One kernel source is compiled once per instruction set
// (rasterizer/CMakeLists.txt); DP2_SIMD_TARGET picks the implementation below and
// DP2_SIMD_NS the namespace, so the copies never meet at link time (each TU's inline
// functions live in its own namespace: no ODR clash between an AVX2 and a scalar copy).
//
// Every operation has one meaning on every target, spelt out by the scalar version —
// including the corners: min/max return the second operand when either is NaN (the SSE
// rule), float→int truncation gives INT32_MIN when out of range (cvttps), and no
// operation fuses a multiply with an add (-ffp-contract=off, CMakeLists.txt). So every
// target gives the same bits (tests force each and compare images).
//
// Include only from a kernel TU that defines DP2_SIMD_TARGET (0 scalar, 1 SSE4.1, 2 AVX2,
// 3 NEON on AArch64, 4 AVX-512) and DP2_SIMD_NS.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#if !defined(DP2_SIMD_TARGET) || !defined(DP2_SIMD_NS)
#error "simd.h is included only from a per-ISA kernel source (see rasterizer/CMakeLists.txt)"
#endif

// Target 4 is the AVX2 code below built with AVX-512 F, VL, BW and DQ: the same 8-lane
// operations in 256-bit registers, where the compiler has 32 of them instead of 16 and
// EVEX encodings. The kernels' temporaries then stay in registers instead of the stack.
#if DP2_SIMD_TARGET == 2 || DP2_SIMD_TARGET == 4
#define DP2_SIMD_AVX2_CODE 1
#else
#define DP2_SIMD_AVX2_CODE 0
#endif

#if DP2_SIMD_AVX2_CODE
#include <immintrin.h>
#elif DP2_SIMD_TARGET == 1
#include <smmintrin.h>
#elif DP2_SIMD_TARGET == 3
#include <arm_neon.h>
#endif

namespace dp2::raster::DP2_SIMD_NS {

inline constexpr int kLanes = 8;

#if DP2_SIMD_TARGET == 0  // ------------------------------------------------------------ scalar

// GCC's and Clang's generic vectors, two halves of four lanes: each operation below is the
// lane-by-lane rule written once for four lanes, and the compiler lowers it to the
// baseline instruction set (SSE2 on x86-64, one lane at a time where there is no vector
// unit). Four-lane halves, not one 32-byte vector: SSE2 has no 32-byte registers, and GCC
// turns a compare-and-select on a vector wider than the machine's into a branch per lane
// (2× slower on W1). Written as eight-lane loops over arrays, as it once was, this copy
// took GCC 2 minutes at -O2 and over 10 under ASan (every lane a memory access to walk
// for aliases and to instrument) — most of CI's time. Lanes hold the same IEEE single and
// two's-complement values as the other targets; the integer arithmetic is done on
// unsigned lanes, where wrapping is defined.
typedef float VF __attribute__((vector_size(16)));
typedef std::int32_t VI __attribute__((vector_size(16)));
typedef std::uint32_t VU __attribute__((vector_size(16)));
struct F8 { VF h[2]; };  // lanes 0–3, 4–7
struct I8 { VI h[2]; };

inline VI as_int(VF a) { return std::bit_cast<VI>(a); }
inline VF as_float(VI a) { return std::bit_cast<VF>(a); }
inline VI wrap(VU a) { return std::bit_cast<VI>(a); }
inline VU as_unsigned(VI a) { return std::bit_cast<VU>(a); }

inline F8 splat(float x) { return {VF{} + x, VF{} + x}; }
inline I8 splat_i(std::int32_t x) { return {VI{} + x, VI{} + x}; }
inline F8 load(const float* p) { F8 r; std::memcpy(r.h, p, 32); return r; }
inline I8 load_i(const void* p) { I8 r; std::memcpy(r.h, p, 32); return r; }
inline void store(float* p, F8 a) { std::memcpy(p, a.h, 32); }
inline void store_i(void* p, I8 a) { std::memcpy(p, a.h, 32); }
// Lanes 0–3 from row0, 4–7 from row1 (a 4×2 block of 32-bit pixels), and back.
inline I8 load_rows(const void* row0, const void* row1) {
  I8 r;
  std::memcpy(&r.h[0], row0, 16);
  std::memcpy(&r.h[1], row1, 16);
  return r;
}
inline void store_rows(void* row0, void* row1, I8 a) {
  std::memcpy(row0, &a.h[0], 16);
  std::memcpy(row1, &a.h[1], 16);
}
inline F8 operator+(F8 a, F8 b) { return {a.h[0] + b.h[0], a.h[1] + b.h[1]}; }
inline F8 operator-(F8 a, F8 b) { return {a.h[0] - b.h[0], a.h[1] - b.h[1]}; }
inline F8 operator*(F8 a, F8 b) { return {a.h[0] * b.h[0], a.h[1] * b.h[1]}; }
inline F8 operator/(F8 a, F8 b) { return {a.h[0] / b.h[0], a.h[1] / b.h[1]}; }
// Lane i = m lane i ? a : b (m all ones or zero per lane).
inline VI blend(VI m, VI a, VI b) { return (m & a) | (~m & b); }
inline I8 select(I8 m, I8 a, I8 b) { return {blend(m.h[0], a.h[0], b.h[0]), blend(m.h[1], a.h[1], b.h[1])}; }
inline F8 select(I8 m, F8 a, F8 b) {
  return {as_float(blend(m.h[0], as_int(a.h[0]), as_int(b.h[0]))), as_float(blend(m.h[1], as_int(a.h[1]), as_int(b.h[1])))};
}
inline I8 cmp_lt(F8 a, F8 b) { return {a.h[0] < b.h[0], a.h[1] < b.h[1]}; }
inline I8 cmp_le(F8 a, F8 b) { return {a.h[0] <= b.h[0], a.h[1] <= b.h[1]}; }
inline I8 cmp_gt(F8 a, F8 b) { return {a.h[0] > b.h[0], a.h[1] > b.h[1]}; }
inline I8 is_nan(F8 a) { return {a.h[0] != a.h[0], a.h[1] != a.h[1]}; }
// a < b ? a : b, lane by lane: the second operand when either is NaN.
inline F8 min(F8 a, F8 b) { return select(cmp_lt(a, b), a, b); }
inline F8 max(F8 a, F8 b) { return select(cmp_gt(a, b), a, b); }
inline F8 floor(F8 a) {
  for (int i = 0; i < 4; ++i) {
    a.h[0][i] = __builtin_floorf(a.h[0][i]);
    a.h[1][i] = __builtin_floorf(a.h[1][i]);
  }
  return a;
}
inline F8 to_float(I8 a) { return {__builtin_convertvector(a.h[0], VF), __builtin_convertvector(a.h[1], VF)}; }
// Toward zero; INT32_MIN where out of range or NaN. Out-of-range lanes are zeroed before
// the conversion, which is undefined for them in C++.
inline VI truncate_half(VF a) {
  const VI in_range = (a > -2147483904.0f) & (a < 2147483648.0f);
  return blend(in_range, __builtin_convertvector(as_float(in_range & as_int(a)), VI), VI{} + INT32_MIN);
}
inline I8 truncate(F8 a) { return {truncate_half(a.h[0]), truncate_half(a.h[1])}; }
inline I8 operator+(I8 a, I8 b) { return {wrap(as_unsigned(a.h[0]) + as_unsigned(b.h[0])), wrap(as_unsigned(a.h[1]) + as_unsigned(b.h[1]))}; }
inline I8 operator-(I8 a, I8 b) { return {wrap(as_unsigned(a.h[0]) - as_unsigned(b.h[0])), wrap(as_unsigned(a.h[1]) - as_unsigned(b.h[1]))}; }
inline I8 mul_lo(I8 a, I8 b) { return {wrap(as_unsigned(a.h[0]) * as_unsigned(b.h[0])), wrap(as_unsigned(a.h[1]) * as_unsigned(b.h[1]))}; }
inline I8 operator&(I8 a, I8 b) { return {a.h[0] & b.h[0], a.h[1] & b.h[1]}; }
inline I8 operator|(I8 a, I8 b) { return {a.h[0] | b.h[0], a.h[1] | b.h[1]}; }
inline I8 operator^(I8 a, I8 b) { return {a.h[0] ^ b.h[0], a.h[1] ^ b.h[1]}; }
inline I8 andnot(I8 a, I8 b) { return {~a.h[0] & b.h[0], ~a.h[1] & b.h[1]}; }  // ~a & b
template <int N> I8 shl(I8 a) { return {wrap(as_unsigned(a.h[0]) << N), wrap(as_unsigned(a.h[1]) << N)}; }
template <int N> I8 shr(I8 a) { return {wrap(as_unsigned(a.h[0]) >> N), wrap(as_unsigned(a.h[1]) >> N)}; }
inline I8 cmp_gt(I8 a, I8 b) { return {a.h[0] > b.h[0], a.h[1] > b.h[1]}; }
inline I8 cmp_eq(I8 a, I8 b) { return {a.h[0] == b.h[0], a.h[1] == b.h[1]}; }
inline I8 min(I8 a, I8 b) { return select(cmp_gt(b, a), a, b); }
inline I8 max(I8 a, I8 b) { return select(cmp_gt(a, b), a, b); }
inline int bits(I8 m) {
  int r = 0;
  for (int i = 0; i < 4; ++i) r |= (m.h[0][i] < 0 ? 1 : 0) << i | (m.h[1][i] < 0 ? 1 : 0) << (i + 4);
  return r;
}

#elif DP2_SIMD_TARGET == 1  // ------------------------------------------------------- SSE4.1

struct F8 { __m128 lo, hi; };
struct I8 { __m128i lo, hi; };

#define DP2_F2(op) F8{op(a.lo, b.lo), op(a.hi, b.hi)}
#define DP2_I2(op) I8{op(a.lo, b.lo), op(a.hi, b.hi)}
inline F8 splat(float x) { return {_mm_set1_ps(x), _mm_set1_ps(x)}; }
inline I8 splat_i(std::int32_t x) { return {_mm_set1_epi32(x), _mm_set1_epi32(x)}; }
inline F8 load(const float* p) { return {_mm_loadu_ps(p), _mm_loadu_ps(p + 4)}; }
inline I8 load_i(const void* p) {
  const auto* q = static_cast<const __m128i*>(p);
  return {_mm_loadu_si128(q), _mm_loadu_si128(q + 1)};
}
inline void store(float* p, F8 a) { _mm_storeu_ps(p, a.lo); _mm_storeu_ps(p + 4, a.hi); }
inline void store_i(void* p, I8 a) {
  auto* q = static_cast<__m128i*>(p);
  _mm_storeu_si128(q, a.lo);
  _mm_storeu_si128(q + 1, a.hi);
}
inline I8 load_rows(const void* row0, const void* row1) {
  return {_mm_loadu_si128(static_cast<const __m128i*>(row0)), _mm_loadu_si128(static_cast<const __m128i*>(row1))};
}
inline void store_rows(void* row0, void* row1, I8 a) {
  _mm_storeu_si128(static_cast<__m128i*>(row0), a.lo);
  _mm_storeu_si128(static_cast<__m128i*>(row1), a.hi);
}
inline F8 operator+(F8 a, F8 b) { return DP2_F2(_mm_add_ps); }
inline F8 operator-(F8 a, F8 b) { return DP2_F2(_mm_sub_ps); }
inline F8 operator*(F8 a, F8 b) { return DP2_F2(_mm_mul_ps); }
inline F8 operator/(F8 a, F8 b) { return DP2_F2(_mm_div_ps); }
inline F8 min(F8 a, F8 b) { return DP2_F2(_mm_min_ps); }
inline F8 max(F8 a, F8 b) { return DP2_F2(_mm_max_ps); }
inline F8 floor(F8 a) { return {_mm_floor_ps(a.lo), _mm_floor_ps(a.hi)}; }
inline I8 cmp_lt(F8 a, F8 b) { return {_mm_castps_si128(_mm_cmplt_ps(a.lo, b.lo)), _mm_castps_si128(_mm_cmplt_ps(a.hi, b.hi))}; }
inline I8 cmp_le(F8 a, F8 b) { return {_mm_castps_si128(_mm_cmple_ps(a.lo, b.lo)), _mm_castps_si128(_mm_cmple_ps(a.hi, b.hi))}; }
inline I8 cmp_gt(F8 a, F8 b) { return {_mm_castps_si128(_mm_cmpgt_ps(a.lo, b.lo)), _mm_castps_si128(_mm_cmpgt_ps(a.hi, b.hi))}; }
inline I8 is_nan(F8 a) { return {_mm_castps_si128(_mm_cmpunord_ps(a.lo, a.lo)), _mm_castps_si128(_mm_cmpunord_ps(a.hi, a.hi))}; }
inline F8 to_float(I8 a) { return {_mm_cvtepi32_ps(a.lo), _mm_cvtepi32_ps(a.hi)}; }
inline I8 truncate(F8 a) { return {_mm_cvttps_epi32(a.lo), _mm_cvttps_epi32(a.hi)}; }
inline I8 operator+(I8 a, I8 b) { return DP2_I2(_mm_add_epi32); }
inline I8 operator-(I8 a, I8 b) { return DP2_I2(_mm_sub_epi32); }
inline I8 mul_lo(I8 a, I8 b) { return DP2_I2(_mm_mullo_epi32); }
inline I8 operator&(I8 a, I8 b) { return DP2_I2(_mm_and_si128); }
inline I8 operator|(I8 a, I8 b) { return DP2_I2(_mm_or_si128); }
inline I8 operator^(I8 a, I8 b) { return DP2_I2(_mm_xor_si128); }
inline I8 andnot(I8 a, I8 b) { return DP2_I2(_mm_andnot_si128); }
template <int N> I8 shl(I8 a) { return {_mm_slli_epi32(a.lo, N), _mm_slli_epi32(a.hi, N)}; }
template <int N> I8 shr(I8 a) { return {_mm_srli_epi32(a.lo, N), _mm_srli_epi32(a.hi, N)}; }
inline I8 cmp_gt(I8 a, I8 b) { return DP2_I2(_mm_cmpgt_epi32); }
inline I8 cmp_eq(I8 a, I8 b) { return DP2_I2(_mm_cmpeq_epi32); }
inline I8 min(I8 a, I8 b) { return DP2_I2(_mm_min_epi32); }
inline I8 max(I8 a, I8 b) { return DP2_I2(_mm_max_epi32); }
inline F8 select(I8 m, F8 a, F8 b) {
  return {_mm_blendv_ps(b.lo, a.lo, _mm_castsi128_ps(m.lo)), _mm_blendv_ps(b.hi, a.hi, _mm_castsi128_ps(m.hi))};
}
inline I8 select(I8 m, I8 a, I8 b) { return {_mm_blendv_epi8(b.lo, a.lo, m.lo), _mm_blendv_epi8(b.hi, a.hi, m.hi)}; }
inline int bits(I8 m) {
  return _mm_movemask_ps(_mm_castsi128_ps(m.lo)) | (_mm_movemask_ps(_mm_castsi128_ps(m.hi)) << 4);
}
#undef DP2_F2
#undef DP2_I2

#elif DP2_SIMD_AVX2_CODE  // ------------------------------------------------ AVX2 (and AVX-512)

struct F8 { __m256 v; };
struct I8 { __m256i v; };

inline F8 splat(float x) { return {_mm256_set1_ps(x)}; }
inline I8 splat_i(std::int32_t x) { return {_mm256_set1_epi32(x)}; }
inline F8 load(const float* p) { return {_mm256_loadu_ps(p)}; }
inline I8 load_i(const void* p) { return {_mm256_loadu_si256(static_cast<const __m256i*>(p))}; }
inline void store(float* p, F8 a) { _mm256_storeu_ps(p, a.v); }
inline void store_i(void* p, I8 a) { _mm256_storeu_si256(static_cast<__m256i*>(p), a.v); }
inline I8 load_rows(const void* row0, const void* row1) {
  return {_mm256_loadu2_m128i(static_cast<const __m128i*>(row1), static_cast<const __m128i*>(row0))};
}
inline void store_rows(void* row0, void* row1, I8 a) {
  _mm256_storeu2_m128i(static_cast<__m128i*>(row1), static_cast<__m128i*>(row0), a.v);
}
inline F8 operator+(F8 a, F8 b) { return {_mm256_add_ps(a.v, b.v)}; }
inline F8 operator-(F8 a, F8 b) { return {_mm256_sub_ps(a.v, b.v)}; }
inline F8 operator*(F8 a, F8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
inline F8 operator/(F8 a, F8 b) { return {_mm256_div_ps(a.v, b.v)}; }
inline F8 min(F8 a, F8 b) { return {_mm256_min_ps(a.v, b.v)}; }
inline F8 max(F8 a, F8 b) { return {_mm256_max_ps(a.v, b.v)}; }
inline F8 floor(F8 a) { return {_mm256_floor_ps(a.v)}; }
inline I8 cmp_lt(F8 a, F8 b) { return {_mm256_castps_si256(_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ))}; }
inline I8 cmp_le(F8 a, F8 b) { return {_mm256_castps_si256(_mm256_cmp_ps(a.v, b.v, _CMP_LE_OQ))}; }
inline I8 cmp_gt(F8 a, F8 b) { return {_mm256_castps_si256(_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ))}; }
inline I8 is_nan(F8 a) { return {_mm256_castps_si256(_mm256_cmp_ps(a.v, a.v, _CMP_UNORD_Q))}; }
inline F8 to_float(I8 a) { return {_mm256_cvtepi32_ps(a.v)}; }
inline I8 truncate(F8 a) { return {_mm256_cvttps_epi32(a.v)}; }
inline I8 operator+(I8 a, I8 b) { return {_mm256_add_epi32(a.v, b.v)}; }
inline I8 operator-(I8 a, I8 b) { return {_mm256_sub_epi32(a.v, b.v)}; }
inline I8 mul_lo(I8 a, I8 b) { return {_mm256_mullo_epi32(a.v, b.v)}; }
inline I8 operator&(I8 a, I8 b) { return {_mm256_and_si256(a.v, b.v)}; }
inline I8 operator|(I8 a, I8 b) { return {_mm256_or_si256(a.v, b.v)}; }
inline I8 operator^(I8 a, I8 b) { return {_mm256_xor_si256(a.v, b.v)}; }
inline I8 andnot(I8 a, I8 b) { return {_mm256_andnot_si256(a.v, b.v)}; }
template <int N> I8 shl(I8 a) { return {_mm256_slli_epi32(a.v, N)}; }
template <int N> I8 shr(I8 a) { return {_mm256_srli_epi32(a.v, N)}; }
inline I8 cmp_gt(I8 a, I8 b) { return {_mm256_cmpgt_epi32(a.v, b.v)}; }
inline I8 cmp_eq(I8 a, I8 b) { return {_mm256_cmpeq_epi32(a.v, b.v)}; }
inline I8 min(I8 a, I8 b) { return {_mm256_min_epi32(a.v, b.v)}; }
inline I8 max(I8 a, I8 b) { return {_mm256_max_epi32(a.v, b.v)}; }
inline F8 select(I8 m, F8 a, F8 b) { return {_mm256_blendv_ps(b.v, a.v, _mm256_castsi256_ps(m.v))}; }
inline I8 select(I8 m, I8 a, I8 b) { return {_mm256_blendv_epi8(b.v, a.v, m.v)}; }
inline int bits(I8 m) { return _mm256_movemask_ps(_mm256_castsi256_ps(m.v)); }
// Byte N of each lane, zero-extended: one vpshufb where the other targets shift and mask
// (below).
template <int N> I8 byte_at(I8 a) {
  static_assert(N >= 0 && N < 4);
  constexpr char z = -1;  // pshufb: a byte index with the top bit set reads zero
  const __m256i pick = _mm256_setr_epi8(N, z, z, z, N + 4, z, z, z, N + 8, z, z, z, N + 12, z, z, z,  //
                                        N, z, z, z, N + 4, z, z, z, N + 8, z, z, z, N + 12, z, z, z);
  return {_mm256_shuffle_epi8(a.v, pick)};
}
// a·b + c where the product a·b is exact: one rounding either way, so the fused form
// (FMA3, which this copy is built with and span.cpp requires of the CPU) gives the very
// bits of the separate multiply and add. The other targets multiply and add (below).
inline F8 exact_product_plus(F8 a, F8 b, F8 c) { return {_mm256_fmadd_ps(a.v, b.v, c.v)}; }
inline I8 gather(const std::uint32_t* base, I8 index) {
  return {_mm256_i32gather_epi32(reinterpret_cast<const int*>(base), index.v, 4)};
}
// One 64-bit load per lane (a hardware gather moves one element at a time, so eight
// scalar loads of two texels each cost about half of two 8-lane vpgatherdd). Lanes 0, 1,
// 4, 5 go to `a` and 2, 3, 6, 7 to `b`, so that shufps, which picks within 128-bit
// halves, puts the even and odd dwords back in lane order.
inline void gather_pair(const std::uint32_t* base, I8 index, I8& first, I8& second) {
  alignas(32) std::int32_t i[8];
  store_i(i, index);
  std::uint64_t t[8];
  for (int k = 0; k < 8; ++k) std::memcpy(&t[k], base + i[k], 8);
  const __m256 a = _mm256_castsi256_ps(_mm256_setr_epi64x(static_cast<long long>(t[0]), static_cast<long long>(t[1]),
                                                          static_cast<long long>(t[4]), static_cast<long long>(t[5])));
  const __m256 b = _mm256_castsi256_ps(_mm256_setr_epi64x(static_cast<long long>(t[2]), static_cast<long long>(t[3]),
                                                          static_cast<long long>(t[6]), static_cast<long long>(t[7])));
  first = {_mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)))};
  second = {_mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)))};
}
#elif DP2_SIMD_TARGET == 3  // ---------------------------------------------------- NEON (AArch64)

// Two 128-bit halves, as SSE4.1. Where a NEON instruction's corner differs from the
// scalar meaning (vminq/vmaxq propagate NaN, vcvtq saturates), the operation is spelt
// with compares and selects instead.
struct F8 { float32x4_t lo, hi; };
struct I8 { int32x4_t lo, hi; };

#define DP2_F2(op) F8{op(a.lo, b.lo), op(a.hi, b.hi)}
#define DP2_I2(op) I8{op(a.lo, b.lo), op(a.hi, b.hi)}
inline F8 splat(float x) { return {vdupq_n_f32(x), vdupq_n_f32(x)}; }
inline I8 splat_i(std::int32_t x) { return {vdupq_n_s32(x), vdupq_n_s32(x)}; }
inline F8 load(const float* p) { return {vld1q_f32(p), vld1q_f32(p + 4)}; }
inline I8 load_i(const void* p) {
  const auto* q = static_cast<const std::int32_t*>(p);
  return {vld1q_s32(q), vld1q_s32(q + 4)};
}
inline void store(float* p, F8 a) { vst1q_f32(p, a.lo); vst1q_f32(p + 4, a.hi); }
inline void store_i(void* p, I8 a) {
  auto* q = static_cast<std::int32_t*>(p);
  vst1q_s32(q, a.lo);
  vst1q_s32(q + 4, a.hi);
}
inline I8 load_rows(const void* row0, const void* row1) {
  return {vld1q_s32(static_cast<const std::int32_t*>(row0)), vld1q_s32(static_cast<const std::int32_t*>(row1))};
}
inline void store_rows(void* row0, void* row1, I8 a) {
  vst1q_s32(static_cast<std::int32_t*>(row0), a.lo);
  vst1q_s32(static_cast<std::int32_t*>(row1), a.hi);
}
inline int32x4_t as_i(uint32x4_t m) { return vreinterpretq_s32_u32(m); }
inline uint32x4_t as_u(int32x4_t m) { return vreinterpretq_u32_s32(m); }
inline F8 operator+(F8 a, F8 b) { return DP2_F2(vaddq_f32); }
inline F8 operator-(F8 a, F8 b) { return DP2_F2(vsubq_f32); }
inline F8 operator*(F8 a, F8 b) { return DP2_F2(vmulq_f32); }
inline F8 operator/(F8 a, F8 b) { return DP2_F2(vdivq_f32); }
// a < b ? a : b and a > b ? a : b, lane by lane: NaN (either operand) gives b.
inline F8 min(F8 a, F8 b) { return {vbslq_f32(vcltq_f32(a.lo, b.lo), a.lo, b.lo), vbslq_f32(vcltq_f32(a.hi, b.hi), a.hi, b.hi)}; }
inline F8 max(F8 a, F8 b) { return {vbslq_f32(vcgtq_f32(a.lo, b.lo), a.lo, b.lo), vbslq_f32(vcgtq_f32(a.hi, b.hi), a.hi, b.hi)}; }
inline F8 floor(F8 a) { return {vrndmq_f32(a.lo), vrndmq_f32(a.hi)}; }
inline I8 cmp_lt(F8 a, F8 b) { return {as_i(vcltq_f32(a.lo, b.lo)), as_i(vcltq_f32(a.hi, b.hi))}; }
inline I8 cmp_le(F8 a, F8 b) { return {as_i(vcleq_f32(a.lo, b.lo)), as_i(vcleq_f32(a.hi, b.hi))}; }
inline I8 cmp_gt(F8 a, F8 b) { return {as_i(vcgtq_f32(a.lo, b.lo)), as_i(vcgtq_f32(a.hi, b.hi))}; }
inline I8 is_nan(F8 a) { return {as_i(vmvnq_u32(vceqq_f32(a.lo, a.lo))), as_i(vmvnq_u32(vceqq_f32(a.hi, a.hi)))}; }
inline F8 to_float(I8 a) { return {vcvtq_f32_s32(a.lo), vcvtq_f32_s32(a.hi)}; }
// vcvtq saturates and sends NaN to 0; the scalar meaning (cvttps) is INT32_MIN for both.
inline int32x4_t truncate4(float32x4_t a) {
  const uint32x4_t in_range = vandq_u32(vcgtq_f32(a, vdupq_n_f32(-2147483904.0f)), vcltq_f32(a, vdupq_n_f32(2147483648.0f)));
  return vbslq_s32(in_range, vcvtq_s32_f32(a), vdupq_n_s32(INT32_MIN));
}
inline I8 truncate(F8 a) { return {truncate4(a.lo), truncate4(a.hi)}; }
inline I8 operator+(I8 a, I8 b) { return DP2_I2(vaddq_s32); }
inline I8 operator-(I8 a, I8 b) { return DP2_I2(vsubq_s32); }
inline I8 mul_lo(I8 a, I8 b) { return DP2_I2(vmulq_s32); }
inline I8 operator&(I8 a, I8 b) { return DP2_I2(vandq_s32); }
inline I8 operator|(I8 a, I8 b) { return DP2_I2(vorrq_s32); }
inline I8 operator^(I8 a, I8 b) { return DP2_I2(veorq_s32); }
inline I8 andnot(I8 a, I8 b) { return {vbicq_s32(b.lo, a.lo), vbicq_s32(b.hi, a.hi)}; }  // ~a & b
template <int N> I8 shl(I8 a) {
  if constexpr (N == 0) return a;
  else return {vshlq_n_s32(a.lo, N), vshlq_n_s32(a.hi, N)};
}
template <int N> I8 shr(I8 a) {
  if constexpr (N == 0) return a;
  else return {as_i(vshrq_n_u32(as_u(a.lo), N)), as_i(vshrq_n_u32(as_u(a.hi), N))};
}
inline I8 cmp_gt(I8 a, I8 b) { return {as_i(vcgtq_s32(a.lo, b.lo)), as_i(vcgtq_s32(a.hi, b.hi))}; }
inline I8 cmp_eq(I8 a, I8 b) { return {as_i(vceqq_s32(a.lo, b.lo)), as_i(vceqq_s32(a.hi, b.hi))}; }
inline I8 min(I8 a, I8 b) { return DP2_I2(vminq_s32); }
inline I8 max(I8 a, I8 b) { return DP2_I2(vmaxq_s32); }
inline F8 select(I8 m, F8 a, F8 b) { return {vbslq_f32(as_u(m.lo), a.lo, b.lo), vbslq_f32(as_u(m.hi), a.hi, b.hi)}; }
inline I8 select(I8 m, I8 a, I8 b) { return {vbslq_s32(as_u(m.lo), a.lo, b.lo), vbslq_s32(as_u(m.hi), a.hi, b.hi)}; }
inline int bits(I8 m) {
  // Each lane's sign bit moved to bit `lane` (0–3), then the four summed across.
  alignas(16) static constexpr std::int32_t kLaneShift[4] = {0, 1, 2, 3};
  const int32x4_t shift = vld1q_s32(kLaneShift);
  const uint32x4_t lo = vshlq_u32(vshrq_n_u32(as_u(m.lo), 31), shift);
  const uint32x4_t hi = vshlq_u32(vshrq_n_u32(as_u(m.hi), 31), shift);
  return static_cast<int>(vaddvq_u32(lo) | (vaddvq_u32(hi) << 4));
}
#undef DP2_F2
#undef DP2_I2

#else
#error "unknown DP2_SIMD_TARGET"
#endif

#if !DP2_SIMD_AVX2_CODE
// byte_at() and exact_product_plus() as the AVX2 copy defines them, in plain operations.
template <int N> I8 byte_at(I8 a) {
  static_assert(N >= 0 && N < 4);
  if constexpr (N == 3) return shr<24>(a);
  else return shr<8 * N>(a) & splat_i(0xFF);
}
inline F8 exact_product_plus(F8 a, F8 b, F8 c) { return a * b + c; }
// Only AVX2 has a gather (and its own pair gather): the others make eight scalar loads
// through memory (32-bit loads from base + index·4 bytes; the pair form also loads each
// lane's right-hand neighbour).
inline I8 gather(const std::uint32_t* base, I8 index) {
  alignas(16) std::int32_t i[8], r[8];
  store_i(i, index);
  for (int k = 0; k < 8; ++k) r[k] = static_cast<std::int32_t>(base[i[k]]);
  return load_i(r);
}
inline void gather_pair(const std::uint32_t* base, I8 index, I8& first, I8& second) {
  alignas(16) std::int32_t i[8], r0[8], r1[8];
  store_i(i, index);
  for (int k = 0; k < 8; ++k) {
    r0[k] = static_cast<std::int32_t>(base[i[k]]);
    r1[k] = static_cast<std::int32_t>(base[i[k] + 1]);
  }
  first = load_i(r0);
  second = load_i(r1);
}
#endif

// A 4×2 block of 16-bit pixels: lanes 0–3 are row0's four, 4–7 row1's, zero-extended;
// store_rows16 writes each lane's low 16 bits back (lanes hold values in [0, 0xFFFF]).
#if DP2_SIMD_AVX2_CODE
inline I8 load_rows16(const void* row0, const void* row1) {
  const __m128i a = _mm_loadl_epi64(static_cast<const __m128i*>(row0));
  const __m128i b = _mm_loadl_epi64(static_cast<const __m128i*>(row1));
  return {_mm256_cvtepu16_epi32(_mm_unpacklo_epi64(a, b))};
}
inline void store_rows16(void* row0, void* row1, I8 a) {
  const __m128i p = _mm_packus_epi32(_mm256_castsi256_si128(a.v), _mm256_extracti128_si256(a.v, 1));
  _mm_storel_epi64(static_cast<__m128i*>(row0), p);
  _mm_storel_epi64(static_cast<__m128i*>(row1), _mm_unpackhi_epi64(p, p));
}
#elif DP2_SIMD_TARGET == 1
inline I8 load_rows16(const void* row0, const void* row1) {
  return {_mm_cvtepu16_epi32(_mm_loadl_epi64(static_cast<const __m128i*>(row0))),
          _mm_cvtepu16_epi32(_mm_loadl_epi64(static_cast<const __m128i*>(row1)))};
}
inline void store_rows16(void* row0, void* row1, I8 a) {
  const __m128i p = _mm_packus_epi32(a.lo, a.hi);
  _mm_storel_epi64(static_cast<__m128i*>(row0), p);
  _mm_storel_epi64(static_cast<__m128i*>(row1), _mm_unpackhi_epi64(p, p));
}
#else  // scalar and NEON: lane by lane
inline I8 load_rows16(const void* row0, const void* row1) {
  std::uint16_t h[8];
  std::memcpy(h, row0, 8);
  std::memcpy(h + 4, row1, 8);
  alignas(16) std::int32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = h[i];
  return load_i(v);
}
inline void store_rows16(void* row0, void* row1, I8 a) {
  alignas(16) std::int32_t v[8];
  store_i(v, a);
  std::uint16_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = static_cast<std::uint16_t>(v[i]);
  std::memcpy(row0, h, 8);
  std::memcpy(row1, h + 4, 8);
}
#endif

// One row of a grid's block masks (span.h: BlockGrid, 16 bytes, `cols` of them in use):
// bit k of `covered` is set where block k has a covered lane, of `full` where all eight are.
struct RowMasks {
  std::uint32_t covered, full;
};
#if DP2_SIMD_TARGET == 1 || DP2_SIMD_AVX2_CODE
// Two byte compares over the whole row; `& used` drops its unused tail (k ≥ cols), which
// a grid narrower than a tile leaves unwritten.
inline RowMasks row_masks(const std::uint8_t (&row)[16], std::int32_t cols) {
  const __m128i m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row));
  const auto used = static_cast<std::uint32_t>((1u << cols) - 1u);  // cols ≤ 16
  const auto empty = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(m, _mm_setzero_si128())));
  const auto full = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(m, _mm_set1_epi8(-1))));
  return {~empty & used, full & used};
}
#else  // scalar and NEON: block by block, reading only the blocks in use
inline RowMasks row_masks(const std::uint8_t (&row)[16], std::int32_t cols) {
  RowMasks r{0, 0};
  for (std::int32_t k = 0; k < cols; ++k) {
    r.covered |= static_cast<std::uint32_t>(row[k] != 0) << k;
    r.full |= static_cast<std::uint32_t>(row[k] == 0xFF) << k;
  }
  return r;
}
#endif

// Shared spellings built on the primitives above (the same on every target).
inline I8 operator~(I8 a) { return a ^ splat_i(-1); }
// clamp01(x) = x > 0 ? (x < 1 ? x : 1) : 0, NaN → 0 (combiner.h): max(x, 0) turns NaN into
// its second operand, 0.
inline F8 clamp01(F8 x) { return min(max(x, splat(0.0f)), splat(1.0f)); }

// floor(z·(2^24 − 1) + 0.5) for z in [0, 1] — depth_from_float() for 24-bit depth, which
// computes it in double — in float lanes: s = z·(2^24 − 1) rounded to float, then s
// rounded half up. The rounding of the product never moves s across a half: for every
// float z in [0, 1] the two agree (checked for all 1,065,353,217 of them while writing
// this; test_raster_depth_quantize.cpp checks a dense part of them and the corners).
inline I8 quantize_unorm24(F8 z) {
  const F8 s = z * splat(16777215.0f);
  const F8 n = floor(s);
  const I8 up = cmp_le(splat(0.5f), s - n);  // all ones (−1) where the fraction is ≥ 1/2
  return truncate(n) - up;
}

// floor(z·65535 + 0.5) for z in [0, 1] — depth_from_float() for D16, in double there —
// exactly, in float lanes and without FMA. Rounding z·65535 to float would not do: it
// moves 32,768 of the floats in [0, 1] across a half. Instead, with a = z·2^16 (exact: a
// power of two), n = floor(a) and f = a − n (exact: n = 0, or n ≥ a/2, Sterbenz),
//   z·65535 + 0.5 = a − z + 0.5 = n + (f − z + 0.5),   f − z + 0.5 in (−0.5, 1.5),
// so the result is n + 1 where f − z ≥ 1/2, n − 1 where z − f > 1/2, n otherwise. Both
// tests are exact as written: f − 0.5 is exact for f ≥ 1/4 (Sterbenz) and negative, hence
// below z ≥ 0 either way, for f < 1/4; the same holds for z − 0.5 against f ≥ 0. Checked
// for all 1,065,353,217 floats in [0, 1] while writing this; test_raster_depth_quantize.cpp
// checks a dense part of them and the corners.
inline I8 quantize_unorm16(F8 z) {
  const F8 a = z * splat(65536.0f);
  const F8 n = floor(a);
  const F8 f = a - n;
  const I8 up = cmp_le(z, f - splat(0.5f));    // −1 where f − z ≥ 1/2
  const I8 down = cmp_lt(f, z - splat(0.5f));  // −1 where z − f > 1/2
  return truncate(n) - up + down;
}

}  // namespace dp2::raster::DP2_SIMD_NS
