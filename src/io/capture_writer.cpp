// CaptureRecorder: a DeviceObserver that writes every call into a .dp2c file
// (docs/capture-format.md).
//
// Surface contents. The device shows the recorder every surface before each
// DrawPrimitives2 / Render (DeviceObserver::surface_contents). Surfaces the GPU only
// reads (textures, vertex, index and command buffers) are diffed against the bytes last
// recorded and only the changed 64-byte blocks are written. Render targets and depth
// buffers are written by the GPU worker asynchronously, so their bytes are recorded only
// when the CPU defined them: on first sight (before any draw could touch them) and after a
// Lock/LockAsync of them was released (the lock waited for the GPU); then in full, since
// the replay device holds its own rendering there, not what the recorder last wrote.
//
// Threads: every hook runs on the device's calling thread under its lock, in call order;
// start/stop take that lock through Device::set_observer.
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "dp2/capture.h"
#include "io/capture_format.h"

namespace dp2 {

namespace {

using namespace capture;

constexpr std::size_t kDiffBlock = 64;  // granularity of changed ranges

class Payload {
 public:
  Payload& u8(std::uint8_t v) {
    bytes.push_back(std::byte{v});
    return *this;
  }
  Payload& u16(std::uint16_t v) { return u8(static_cast<std::uint8_t>(v)).u8(static_cast<std::uint8_t>(v >> 8)); }
  Payload& u32(std::uint32_t v) { return u16(static_cast<std::uint16_t>(v)).u16(static_cast<std::uint16_t>(v >> 16)); }
  Payload& u64(std::uint64_t v) { return u32(static_cast<std::uint32_t>(v)).u32(static_cast<std::uint32_t>(v >> 32)); }
  Payload& raw(std::span<const std::byte> b) {
    bytes.insert(bytes.end(), b.begin(), b.end());
    return *this;
  }
  std::vector<std::byte> bytes;
};

struct Tracked {
  std::vector<std::byte> last;  // the bytes as last recorded
  bool known = false;           // `last` holds them
  bool gpu_owned = false;       // render target / depth buffer: recorded when the CPU set them
  bool cpu_written = false;     // a lock of a GPU-owned surface was released since
};

}  // namespace

struct CaptureRecorder::Impl {
  Device* device = nullptr;
  std::FILE* file = nullptr;
  std::string path;
  std::string error;
  std::uint64_t written = 0;
  bool attached = false;
  std::unordered_map<DWORD, Tracked> surfaces;

  void write(const void* data, std::size_t size) {
    if (!file || !error.empty() || size == 0) return;
    if (std::fwrite(data, 1, size, file) != size) error = "writing '" + path + "' failed";
    written += size;
  }
  void chunk(std::uint32_t id, const Payload& p) {
    Payload h;
    h.u32(id).u32(0).u64(p.bytes.size());
    write(h.bytes.data(), h.bytes.size());
    write(p.bytes.data(), p.bytes.size());
  }
  void mark_gpu_owned(DWORD handle) {
    if (const auto it = surfaces.find(handle); it != surfaces.end()) it->second.gpu_owned = true;
  }
};

CaptureRecorder::CaptureRecorder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::unique_ptr<CaptureRecorder> CaptureRecorder::start(Device& device, const std::string& path, std::string* error) {
  auto impl = std::make_unique<Impl>();
  impl->device = &device;
  impl->path = path;
  impl->file = std::fopen(path.c_str(), "wb");
  if (!impl->file) {
    if (error) *error = "cannot open '" + path + "' for writing";
    return nullptr;
  }
  Payload header;
  for (char c : kMagic) header.u8(static_cast<std::uint8_t>(c));
  header.u16(kVersionMajor).u16(kVersionMinor).u32(static_cast<std::uint32_t>(kFileHeaderSize));
  impl->write(header.bytes.data(), header.bytes.size());
  const DeviceDesc& d = device.desc();
  Payload dev;
  dev.u32(d.transform_and_lighting ? kDeviceTnL : 0u)
      .u32(d.render_threads)
      .u64(d.video_memory.empty() ? d.video_memory_size : d.video_memory.size())
      .u32(static_cast<std::uint32_t>(sizeof(void*)))
      .u32(0);
  impl->chunk(kDevice, dev);
  if (!impl->error.empty()) {
    if (error) *error = impl->error;
    std::fclose(impl->file);
    return nullptr;
  }
  std::unique_ptr<CaptureRecorder> recorder(new CaptureRecorder(std::move(impl)));
  device.set_observer(recorder.get());
  recorder->impl_->attached = true;
  return recorder;
}

std::unique_ptr<CaptureRecorder> start_capture(Device& device, const std::string& path, std::string* error) {
  return CaptureRecorder::start(device, path, error);
}

CaptureRecorder::~CaptureRecorder() { stop(); }

bool CaptureRecorder::stop(std::string* error) {
  Impl& m = *impl_;
  if (m.attached) {
    m.device->set_observer(nullptr);
    m.attached = false;
  }
  if (m.file) {
    m.chunk(kEnd, Payload{});
    if (std::fclose(m.file) != 0 && m.error.empty()) m.error = "closing '" + m.path + "' failed";
    m.file = nullptr;
  }
  if (!m.error.empty() && error) *error = m.error;
  return m.error.empty();
}

bool CaptureRecorder::ok() const noexcept { return impl_->error.empty(); }
std::uint64_t CaptureRecorder::bytes_written() const noexcept { return impl_->written; }

void CaptureRecorder::surface_created(DWORD handle, const SurfaceDesc& desc) {
  Payload p;
  p.u32(handle)
      .u32(static_cast<std::uint32_t>(desc.kind))
      .u32(static_cast<std::uint32_t>(desc.format))
      .u32(desc.width)
      .u32(desc.height)
      .u32(desc.mip_levels)
      .u64(desc.size_bytes)
      .u32((desc.explicit_vertex_buffer ? kSurfaceExplicitVB : 0u) | (desc.has_color_key ? kSurfaceColorKey : 0u))
      .u32(desc.color_key);
  impl_->chunk(kSurface, p);
  Tracked t;
  t.gpu_owned = desc.kind == SurfaceKind::kRenderTarget || desc.kind == SurfaceKind::kDepthStencil;
  impl_->surfaces[handle] = std::move(t);
}

void CaptureRecorder::surface_destroyed(DWORD handle) {
  impl_->chunk(kSurfaceDestroy, Payload{}.u32(handle));
  impl_->surfaces.erase(handle);
}

void CaptureRecorder::context_created(ULONG_PTR handle, const ContextDesc& desc) {
  Payload p;
  p.u64(handle)
      .u32(desc.interface_version)
      .u32(desc.render_target)
      .u32(desc.depth_stencil)
      .u32(desc.free_threaded ? kContextFreeThreaded : 0u);
  impl_->chunk(kContext, p);
  impl_->mark_gpu_owned(desc.render_target);
  impl_->mark_gpu_owned(desc.depth_stencil);
}

void CaptureRecorder::context_destroyed(ULONG_PTR handle) { impl_->chunk(kContextDestroy, Payload{}.u64(handle)); }

void CaptureRecorder::surface_contents(DWORD handle, std::span<const std::byte> bytes) {
  const auto it = impl_->surfaces.find(handle);
  if (it == impl_->surfaces.end()) return;  // created before the recorder attached
  Tracked& t = it->second;
  if (t.gpu_owned && t.known && !t.cpu_written) return;
  // Changed ranges: everything when the recorder has no copy (or the size changed) or the
  // GPU may have written the surface since; else the differing blocks.
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  if (!t.known || t.last.size() != bytes.size() || t.gpu_owned) {
    if (!bytes.empty()) ranges.emplace_back(0, bytes.size());
    t.last.assign(bytes.begin(), bytes.end());
  } else {
    for (std::size_t at = 0; at < bytes.size(); at += kDiffBlock) {
      const std::size_t n = std::min(kDiffBlock, bytes.size() - at);
      if (std::memcmp(bytes.data() + at, t.last.data() + at, n) == 0) continue;
      if (!ranges.empty() && ranges.back().first + ranges.back().second == at)
        ranges.back().second += n;
      else
        ranges.emplace_back(at, n);
      std::memcpy(t.last.data() + at, bytes.data() + at, n);
    }
  }
  const bool first = !t.known;
  t.known = true;
  t.cpu_written = false;
  if (ranges.empty() && !first) return;
  Payload p;
  p.u32(handle).u32(static_cast<std::uint32_t>(ranges.size())).u64(bytes.size());
  for (const auto& [offset, size] : ranges) p.u64(offset).u64(size).raw(bytes.subspan(offset, size));
  impl_->chunk(kContents, p);
}

void CaptureRecorder::draw_primitives2(const D3DHAL_DRAWPRIMITIVES2DATA& in, std::span<const std::byte> commands,
                                       std::span<const std::byte> user_vertices) {
  const bool user_memory = (in.dwFlags & D3DHALDP2_USERMEMVERTICES) != 0;
  std::uint32_t call_flags = in.lpdwRStates ? kDp2HadRenderStates : 0u;
  if (user_memory && !in.lpVertices) call_flags |= kDp2NullUserVertices;
  Payload p;
  p.u64(in.dwhContext)
      .u32(in.dwFlags)
      .u32(in.dwVertexType)
      .u64(in.lpDDCommands)
      .u32(in.dwCommandOffset)
      .u32(in.dwCommandLength)
      .u64(user_memory ? 0 : in.lpDDVertex)
      .u32(in.dwVertexOffset)
      .u32(in.dwVertexLength)
      .u32(in.dwReqVertexBufSize)
      .u32(in.dwReqCommandBufSize)
      .u32(in.dwVertexSize)
      .u32(call_flags)
      .u32(static_cast<std::uint32_t>(commands.size()))
      .u32(static_cast<std::uint32_t>(user_vertices.size()))
      .raw(commands)
      .raw(user_vertices);
  impl_->chunk(kDrawPrimitives2, p);
}

void CaptureRecorder::render(const D3DDDICB_RENDER& in, std::span<const std::byte> command_buffer,
                             std::span<const D3DDDI_ALLOCATIONLIST> allocations,
                             std::span<const D3DDDI_PATCHLOCATIONLIST> patches) {
  const UINT broadcast = in.BroadcastContextCount <= D3DDDI_MAX_BROADCAST_CONTEXT ? in.BroadcastContextCount : 0;
  Payload p;
  p.u64(reinterpret_cast<std::uintptr_t>(in.hContext))
      .u32(in.CommandOffset)
      .u32(static_cast<std::uint32_t>(command_buffer.size()))
      .u32(in.Flags.Value)
      .u32(in.RenderCBSequence)
      .u32(static_cast<std::uint32_t>(in.MarkerLogType))
      .u32(in.NewCommandBufferSize)
      .u32(in.NewAllocationListSize)
      .u32(in.NewPatchLocationListSize)
      .u32(static_cast<std::uint32_t>(allocations.size()))
      .u32(static_cast<std::uint32_t>(patches.size()))
      .u32(broadcast)
      .u32(0);
  for (UINT i = 0; i < broadcast; ++i) p.u64(reinterpret_cast<std::uintptr_t>(in.BroadcastContext[i]));
  p.raw(command_buffer);
  for (const D3DDDI_ALLOCATIONLIST& a : allocations) p.u32(a.hAllocation).u32(a.Value);
  for (const D3DDDI_PATCHLOCATIONLIST& l : patches)
    p.u32(l.AllocationIndex).u32(l.Value).u32(l.DriverId).u32(l.AllocationOffset).u32(l.PatchOffset).u32(l.SplitOffset);
  impl_->chunk(kRender, p);
}

void CaptureRecorder::unlocked(DWORD handle, std::span<const std::byte> bytes) {
  impl_->chunk(kUnlock, Payload{}.u32(handle).u32(0).u64(bytes.size()));
  // The bytes themselves are recorded at the next DrawPrimitives2 / Render, from the
  // instance the device then uses (after a LockAsync Discard, the one Rename makes current).
  if (const auto it = impl_->surfaces.find(handle); it != impl_->surfaces.end()) it->second.cpu_written = true;
}

void CaptureRecorder::renamed(DWORD handle) { impl_->chunk(kRename, Payload{}.u32(handle)); }

void CaptureRecorder::flip_chain_created(DWORD chain, std::span<const DWORD> surfaces) {
  Payload p;
  p.u32(chain).u32(static_cast<std::uint32_t>(surfaces.size()));
  for (DWORD s : surfaces) {
    p.u32(s);
    impl_->mark_gpu_owned(s);
  }
  impl_->chunk(kFlipChain, p);
}

void CaptureRecorder::flipped(DWORD chain) { impl_->chunk(kFlip, Payload{}.u32(chain)); }

}  // namespace dp2
