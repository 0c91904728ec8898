// The one bounds-checked reader for caller memory (command streams, vertex buffers,
// index data). Every byte dp2 takes from a caller buffer passes through here.
//
// Rules (ARCHITECTURE.md, "Rules that keep it fast and safe"):
//   * a read either fits entirely inside the span or does not happen;
//   * loads are unaligned-safe (memcpy): DP2 headers are only WORD-aligned
//     (DP2-OPCODES.md §2 rule 2) and payload records may be odd-WORD aligned;
//   * every count × size is computed with checked_mul / checked_add before use.
//
// Thread: whichever thread calls the front end; the reader holds no state beyond the span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>

namespace dp2::ddi {

// Overflow-checked arithmetic on size_t. Returns false when the exact result does not fit.
[[nodiscard]] constexpr bool checked_mul(std::size_t a, std::size_t b, std::size_t& out) noexcept {
  return !__builtin_mul_overflow(a, b, &out);
}
[[nodiscard]] constexpr bool checked_add(std::size_t a, std::size_t b, std::size_t& out) noexcept {
  return !__builtin_add_overflow(a, b, &out);
}

class ByteReader {
 public:
  constexpr ByteReader() noexcept = default;
  constexpr explicit ByteReader(std::span<const std::byte> bytes) noexcept : bytes_(bytes) {}

  [[nodiscard]] constexpr std::size_t size() const noexcept { return bytes_.size(); }
  [[nodiscard]] constexpr std::span<const std::byte> bytes() const noexcept { return bytes_; }

  // True when [offset, offset + count) lies inside the buffer (no overflow possible).
  [[nodiscard]] constexpr bool contains(std::size_t offset, std::size_t count) const noexcept {
    return offset <= bytes_.size() && count <= bytes_.size() - offset;
  }

  // Reads a trivially copyable T at `offset`, or nothing when it does not fit.
  template <class T>
  [[nodiscard]] std::optional<T> read(std::size_t offset) const noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!contains(offset, sizeof(T))) return std::nullopt;
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }

  // A sub-span, or an empty optional when it does not fit.
  [[nodiscard]] std::optional<std::span<const std::byte>> slice(std::size_t offset,
                                                                std::size_t count) const noexcept {
    if (!contains(offset, count)) return std::nullopt;
    return bytes_.subspan(offset, count);
  }

 private:
  std::span<const std::byte> bytes_{};
};

// A packed array of records of type T inside a validated span. Element access copies
// (records need not be aligned). Constructed only by the decoder after the bounds check,
// so indexing within size() cannot leave the span.
template <class T>
class Records {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  constexpr Records() noexcept = default;
  constexpr Records(std::span<const std::byte> bytes, std::size_t count) noexcept
      : bytes_(bytes), count_(count) {}

  [[nodiscard]] constexpr std::size_t size() const noexcept { return count_; }
  [[nodiscard]] constexpr bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] constexpr std::span<const std::byte> bytes() const noexcept { return bytes_; }

  // A DWORD-sized field of record i read as a plain DWORD. Enum-typed members (primType,
  // RenderState, xfrmType, ...) must be read this way: the stream may carry any 32-bit
  // value, and loading one outside the enum's range through the enum type is undefined.
  [[nodiscard]] std::uint32_t dword_at(std::size_t i, std::size_t field_offset) const noexcept {
    std::uint32_t value;
    std::memcpy(&value, bytes_.data() + i * sizeof(T) + field_offset, sizeof value);
    return value;
  }

  [[nodiscard]] T operator[](std::size_t i) const noexcept {
    T value;
    std::memcpy(&value, bytes_.data() + i * sizeof(T), sizeof(T));
    return value;
  }

 private:
  std::span<const std::byte> bytes_{};
  std::size_t count_ = 0;
};

}  // namespace dp2::ddi
