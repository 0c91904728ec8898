// The save-state blob's building blocks (device_state.cpp; docs/save-state.md is the
// layout): a Saver that appends values, and a Loader that reads them back through one
// bounds-checked Cursor. Both offer the same calls (value, flag, vector, map, bytes), so one
// template function describes a structure for both directions and the two cannot drift
// apart (STYLE.md: no parallel tables kept in sync by hand).
//
// Every read goes through ddi::ByteReader; every count is checked against the bytes left
// (count × the smallest size of one item, with checked_mul) before anything is allocated.
// A failure is sticky: later reads return zeros and loops see a count of 0, so a structure
// is read to its end without ever leaving the blob, and the first failure (its offset and
// reason) is what the caller reports.
//
// Values are stored as the host lays them out, which on every host dp2 supports is
// little-endian with IEEE-754 floats; DDI structures (D3DMATRIX, D3DLIGHT7, ...) are their
// packed DDI layouts, the same on 32- and 64-bit hosts (checked in device_state.cpp).
//
// Thread: whichever thread saves or restores; no shared state.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ddi/reader.h"

namespace dp2::detail::blob {

static_assert(std::endian::native == std::endian::little, "the save-state blob is little-endian");

class Saver {
 public:
  static constexpr bool kLoading = false;
  explicit Saver(std::vector<std::byte>& out) : out_(out) {}

  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out_.insert(out_.end(), p, p + sizeof(T));
  }
  void flag(const bool& b) { value(static_cast<std::uint8_t>(b ? 1 : 0)); }
  void bytes(std::span<const std::byte> b) {
    value(static_cast<std::uint64_t>(b.size()));
    out_.insert(out_.end(), b.begin(), b.end());
  }
  void bytes(const std::vector<std::byte>& b) { bytes(std::span<const std::byte>(b)); }
  // u32 count, then each item as `item` writes it.
  template <class T, class Fn>
  void vector(const std::vector<T>& v, std::size_t /*min_item*/, Fn&& item) {
    value(static_cast<std::uint32_t>(v.size()));
    for (const T& x : v) item(x);
  }
  // u32 count, then each entry: the key, then the value as `item` writes it (key order).
  template <class K, class V, class Fn>
  void map(const std::map<K, V>& m, std::size_t /*min_item*/, Fn&& item) {
    value(static_cast<std::uint32_t>(m.size()));
    for (const auto& [k, v] : m) {
      value(k);
      item(v);
    }
  }

  // A record: u64 size, then its payload (readers skip payload bytes they do not know).
  std::size_t begin_record() {
    value(std::uint64_t{0});
    return out_.size();
  }
  void end_record(std::size_t begin) {
    const std::uint64_t size = out_.size() - begin;
    std::memcpy(out_.data() + begin - sizeof size, &size, sizeof size);
  }
  std::vector<std::byte>& out() noexcept { return out_; }

 private:
  std::vector<std::byte>& out_;
};

struct Error {
  bool failed = false;
  std::size_t offset = 0;  // blob offset of the field at fault
  std::string what;
  std::string message() const { return "offset " + std::to_string(offset) + ": " + what; }
};

class Cursor {
 public:
  Cursor(std::span<const std::byte> bytes, std::size_t base, Error& error) : reader_(bytes), base_(base), error_(&error) {}

  bool ok() const noexcept { return !error_->failed; }
  std::size_t offset() const noexcept { return base_ + pos_; }
  std::size_t remaining() const noexcept { return reader_.size() - pos_; }
  // Records the first failure only (its offset is where this cursor stands).
  void fail(std::string what) { fail_at(offset(), std::move(what)); }
  void fail_at(std::size_t offset, std::string what) {
    if (error_->failed) return;
    *error_ = {true, offset, std::move(what)};
  }

  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v{};
    if (!ok()) return v;
    const auto r = reader_.read<T>(pos_);
    if (!r) {
      fail("cut short: " + std::to_string(sizeof(T)) + " bytes needed, " + std::to_string(remaining()) + " left");
      return v;
    }
    pos_ += sizeof(T);
    return *r;
  }

  // n bytes (empty, and a failure, when they are not all there).
  std::span<const std::byte> take(std::size_t n) {
    if (!ok()) return {};
    const auto s = reader_.slice(pos_, n);
    if (!s) {
      fail("cut short: " + std::to_string(n) + " bytes needed, " + std::to_string(remaining()) + " left");
      return {};
    }
    pos_ += n;
    return *s;
  }

  // A u32 count of items of at least `min_item` bytes each, checked against what is left.
  std::uint32_t count(std::size_t min_item) {
    const std::size_t at = offset();
    const auto n = get<std::uint32_t>();
    std::size_t bytes = 0;
    if (!ddi::checked_mul(n, min_item, bytes) || bytes > remaining()) {
      fail_at(at, "count " + std::to_string(n) + " does not fit in the " + std::to_string(remaining()) + " bytes left");
      return 0;
    }
    return ok() ? n : 0;
  }

  // The next record (u64 size + payload) as a cursor of its own; this one moves past it.
  Cursor record() {
    const std::size_t at = offset();
    const auto size = get<std::uint64_t>();
    if (ok() && size > remaining()) fail_at(at, "record of " + std::to_string(size) + " bytes, " + std::to_string(remaining()) + " left");
    if (!ok()) return Cursor({}, offset(), *error_);
    Cursor sub(reader_.bytes().subspan(pos_, static_cast<std::size_t>(size)), offset(), *error_);
    pos_ += static_cast<std::size_t>(size);
    return sub;
  }

 private:
  ddi::ByteReader reader_;
  std::size_t base_ = 0;  // blob offset of this cursor's first byte
  std::size_t pos_ = 0;
  Error* error_;
};

class Loader {
 public:
  static constexpr bool kLoading = true;
  explicit Loader(Cursor& cursor) : c_(cursor) {}

  Cursor& cursor() noexcept { return c_; }
  bool ok() const noexcept { return c_.ok(); }

  template <class T>
  void value(T& v) {
    v = c_.get<T>();
  }
  void flag(bool& b) {
    const std::size_t at = c_.offset();
    const auto x = c_.get<std::uint8_t>();
    if (x > 1) c_.fail_at(at, "a flag byte is " + std::to_string(x) + ", not 0 or 1");
    b = x == 1;
  }
  void bytes(std::vector<std::byte>& b) {
    const std::size_t at = c_.offset();
    const auto n = c_.get<std::uint64_t>();
    if (ok() && n > c_.remaining()) c_.fail_at(at, std::to_string(n) + " bytes announced, " + std::to_string(c_.remaining()) + " left");
    if (!ok()) return;
    const auto s = c_.take(static_cast<std::size_t>(n));
    b.assign(s.begin(), s.end());
  }
  template <class T, class Fn>
  void vector(std::vector<T>& v, std::size_t min_item, Fn&& item) {
    const std::uint32_t n = c_.count(min_item);
    v.assign(n, T{});
    for (T& x : v) {
      if (!ok()) break;
      item(x);
    }
    if (!ok()) v.clear();
  }
  template <class K, class V, class Fn>
  void map(std::map<K, V>& m, std::size_t min_item, Fn&& item) {
    const std::uint32_t n = c_.count(sizeof(K) + min_item);
    m.clear();
    for (std::uint32_t i = 0; i < n && ok(); ++i) {
      const std::size_t at = c_.offset();
      K k{};
      value(k);
      V v{};
      item(v);
      if (ok() && !m.emplace(k, std::move(v)).second) c_.fail_at(at, "a key appears twice");
    }
  }

 private:
  Cursor& c_;
};

}  // namespace dp2::detail::blob
