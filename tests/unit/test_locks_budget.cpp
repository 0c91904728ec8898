// LockAsync with Discard when there is no memory for a fresh instance: the pfnLockAsync page
// lists E_OUTOFMEMORY ("could not allocate the required memory"), and nothing may be lost —
// the tracked instance keeps its bytes and the surface stays usable. A system-memory
// budget (DeviceDesc::system_memory_budget) makes the shortage real.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "dp2/device.h"

namespace {

constexpr DWORD kVB = 7;
constexpr std::size_t kBufferBytes = 40 << 10;  // two of them pass the budget below
constexpr std::uint64_t kBudget = 64 << 10;

HANDLE handle_of(DWORD h) { return reinterpret_cast<HANDLE>(static_cast<std::uintptr_t>(h)); }

}  // namespace

TEST_CASE("locks: LockAsync Discard without memory answers E_OUTOFMEMORY and keeps the buffer") {
  dp2::DeviceDesc desc;
  desc.system_memory_budget = kBudget;
  dp2::Device device(desc);
  dp2::SurfaceDesc vb;
  vb.kind = dp2::SurfaceKind::kVertexBuffer;
  vb.size_bytes = kBufferBytes;
  REQUIRE(device.create_surface(kVB, vb) == D3D_OK);
  std::vector<std::byte> pattern(kBufferBytes);
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<std::byte>(i * 7 + 3);
  auto bytes = device.surface_bytes(kVB);
  REQUIRE(bytes.size() == kBufferBytes);
  std::memcpy(bytes.data(), pattern.data(), pattern.size());

  // A second buffer of the same size would pass the budget: the rename has no memory.
  D3DDDIARG_LOCKASYNC discard{};
  discard.hResource = handle_of(kVB);
  discard.Flags.Discard = 1;
  CHECK(device.LockAsync(discard) == E_OUTOFMEMORY);

  // Nothing lost: the same bytes, not locked, and a NoOverwrite lock maps them.
  bytes = device.surface_bytes(kVB);
  CHECK(std::memcmp(bytes.data(), pattern.data(), pattern.size()) == 0);
  D3DDDIARG_LOCKASYNC append{};
  append.hResource = handle_of(kVB);
  append.Flags.NoOverwrite = 1;
  REQUIRE(device.LockAsync(append) == S_OK);
  CHECK(std::memcmp(append.pSurfData, pattern.data(), pattern.size()) == 0);
  D3DDDIARG_UNLOCKASYNC unlock{};
  unlock.hResource = handle_of(kVB);
  CHECK(device.UnlockAsync(unlock) == S_OK);

  // Creating past the budget fails the same way.
  CHECK(device.create_surface(kVB + 1, vb) == E_OUTOFMEMORY);
}
