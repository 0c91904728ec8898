// Replay of a .dp2c capture into a fresh Device (docs/capture-format.md, "Replaying").
//
// Handles the runtime chose (surfaces) are used as recorded; handles the device hands out
// (contexts, flip chains) are mapped from the recorded value to the replay device's.
// Frames: a capture with FLIP chunks ends a frame at each flip (the frame is taken at
// once, as an embedder polling every frame would); one without ends a frame at every
// DrawPrimitives2 / Render call.
//
// Threads: the calling thread drives the device; the device renders on its own workers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

#include "device/context.h"
#include "dp2/capture.h"
#include "dp2/stream_writer.h"

namespace dp2 {

namespace {

std::string at(std::size_t offset, const std::string& what) { return "offset " + std::to_string(offset) + ": " + what; }

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(v));
  return buf;
}

class Replayer {
 public:
  Replayer(const CaptureFile& capture, const ReplayOptions& options, ReplayResult& result)
      : capture_(capture), options_(options), result_(result), last_end_(Clock::now()) {}

  bool run() {
    result_ = ReplayResult{};
    if (!simd_target_from_name(options_.isa, simd_))
      return fail(0, "unknown instruction set '" + options_.isa + "' (" + simd_target_names() + ")");
    for (const CaptureRecord& rec : capture_.records) {
      offset_ = rec.offset;
      if (!std::visit([&](const auto& e) { return apply(e); }, rec.event)) return false;
      if (stop_) break;
    }
    if (device_) device_->wait_idle();
    result_.ok = true;
    return true;
  }

 private:
  using Clock = std::chrono::steady_clock;

  bool fail(std::size_t offset, const std::string& what) {
    result_.ok = false;
    result_.error = at(offset, what);
    return false;
  }
  bool fail(const std::string& what) { return fail(offset_, what); }

  ULONG_PTR context_of(std::uint64_t recorded) const {
    const auto it = contexts_.find(recorded);
    // An unknown context stays unknown: a handle no context of this device has.
    return it != contexts_.end() ? it->second : ~ULONG_PTR{0};
  }

  bool frame_end(DWORD render_target, ULONG_PTR context, bool is_draw) {
    if (is_draw && capture_.has_flips && !options_.on_draw) return true;  // no need to wait
    device_->wait_idle();
    const Clock::time_point now = Clock::now();
    if (is_draw) {
      const double seconds = std::chrono::duration<double>(now - last_draw_end_).count();
      last_draw_end_ = now;
      const std::uint64_t index = result_.draws - 1;
      if (options_.on_draw && !options_.on_draw(ReplayFrame{*device_, index, render_target, context, offset_, seconds}))
        stop_ = result_.stopped = true;
      if (capture_.has_flips || result_.stopped) return true;
    }
    const double seconds = std::chrono::duration<double>(now - last_end_).count();
    last_end_ = now;
    result_.frame_seconds.push_back(seconds);
    const std::uint64_t index = result_.frames++;
    if (options_.on_frame &&
        !options_.on_frame(ReplayFrame{*device_, index, render_target, context, offset_, seconds}))
      stop_ = result_.stopped = true;
    return true;
  }

  DWORD render_target_of(ULONG_PTR context) const {
    const detail::Context* c = device_->inspect_context(context);
    return c ? c->state.render_target : 0;
  }

  bool need_device() {
    if (!device_) return fail("a chunk before the device chunk");
    return true;
  }

  bool after_call() {
    ++result_.draws;
    if (options_.max_calls && result_.draws >= options_.max_calls) stop_ = true;
    return true;
  }

  // ---- one function per chunk ------------------------------------------------------
  bool apply(const CapUnknown&) {
    ++result_.unknown_chunks;
    return true;
  }
  bool apply(const CapEnd&) {
    stop_ = true;
    return true;
  }
  bool apply(const CapDevice& d) {
    DeviceDesc desc;
    desc.transform_and_lighting = d.transform_and_lighting;
    if (options_.video_memory_size) desc.video_memory_size = options_.video_memory_size;
    else if (d.video_memory_size) desc.video_memory_size = d.video_memory_size;
    desc.render_threads = options_.render_threads;
    desc.simd = simd_;
    device_ = std::make_unique<Device>(desc);
    last_end_ = last_draw_end_ = Clock::now();
    return true;
  }
  bool apply(const CapSurface& s) {
    if (!need_device()) return false;
    const SurfaceDesc& d = s.desc;
    if (options_.max_surface_dimension && (d.width > options_.max_surface_dimension || d.height > options_.max_surface_dimension))
      return fail("surface " + std::to_string(s.handle) + " is " + std::to_string(d.width) + "x" + std::to_string(d.height) +
                  ", beyond the replay limit " + std::to_string(options_.max_surface_dimension));
    if (options_.max_surface_bytes) {
      // 16 bytes per pixel is the widest format; mip chains add at most a third.
      const std::uint64_t image = std::uint64_t{d.width} * d.height * 16;
      if (d.size_bytes > options_.max_surface_bytes || image > options_.max_surface_bytes)
        return fail("surface " + std::to_string(s.handle) + " is larger than the replay limit of " +
                    std::to_string(options_.max_surface_bytes) + " bytes");
    }
    const HRESULT hr = device_->create_surface(s.handle, d);
    if (hr != D3D_OK) return fail("create_surface(" + std::to_string(s.handle) + ") failed: " + hex(static_cast<std::uint32_t>(hr)));
    return true;
  }
  bool apply(const CapSurfaceDestroy& s) {
    if (!need_device()) return false;
    if (device_->destroy_surface(s.handle) != D3D_OK) return fail("destroy_surface(" + std::to_string(s.handle) + ") failed");
    shadow_.erase(s.handle);
    return true;
  }
  bool apply(const CapContext& c) {
    if (!need_device()) return false;
    ULONG_PTR handle = 0;
    const HRESULT hr = device_->create_context(c.desc, handle);
    if (hr != D3D_OK) return fail("create_context failed: " + hex(static_cast<std::uint32_t>(hr)));
    contexts_[c.handle] = handle;
    if (!first_context_) first_context_ = handle;
    return true;
  }
  bool apply(const CapContextDestroy& c) {
    if (!need_device()) return false;
    const auto it = contexts_.find(c.handle);
    if (it == contexts_.end()) return fail("destroys context " + std::to_string(c.handle) + ", which was never created");
    device_->destroy_context(it->second);
    contexts_.erase(it);
    return true;
  }
  bool apply(const CapContents& d) {
    if (!need_device()) return false;
    const std::span<std::byte> bytes = device_->surface_bytes(d.handle);
    if (bytes.data() == nullptr && d.surface_size != 0)
      return fail("contents for surface " + std::to_string(d.handle) + ", which does not exist");
    if (bytes.size() != d.surface_size)
      return fail("contents for surface " + std::to_string(d.handle) + " say " + std::to_string(d.surface_size) +
                  " bytes; the replay surface has " + std::to_string(bytes.size()));
    std::vector<std::byte>& shadow = shadow_[d.handle];
    shadow.resize(bytes.size());
    // The reader checked every range against surface_size.
    for (const CapRange& r : d.ranges) {
      if (r.bytes.empty()) continue;
      std::memcpy(bytes.data() + r.offset, r.bytes.data(), r.bytes.size());
      std::memcpy(shadow.data() + r.offset, r.bytes.data(), r.bytes.size());
    }
    return true;
  }
  bool apply(const CapDrawPrimitives2& c) {
    if (!need_device()) return false;
    // The command bytes go where the call reads them (a capture may carry them only here).
    if (!c.commands.empty()) {
      const std::span<std::byte> surface =
          c.commands_surface <= 0xFFFFFFFFu ? device_->surface_bytes(static_cast<DWORD>(c.commands_surface))
                                            : std::span<std::byte>{};
      if (c.command_offset > surface.size() || c.commands.size() > surface.size() - c.command_offset)
        return fail("the call's " + std::to_string(c.commands.size()) + " command bytes at offset " +
                    std::to_string(c.command_offset) + " do not fit command surface " + std::to_string(c.commands_surface));
      std::memcpy(surface.data() + c.command_offset, c.commands.data(), c.commands.size());
    }
    D3DHAL_DRAWPRIMITIVES2DATA data{};
    data.dwhContext = context_of(c.context);
    data.dwFlags = c.flags;
    data.dwVertexType = c.vertex_type;
    data.lpDDCommands = static_cast<ULONG_PTR>(c.commands_surface);
    data.dwCommandOffset = c.command_offset;
    data.dwCommandLength = c.command_length;
    data.dwVertexOffset = c.vertex_offset;
    data.dwVertexLength = c.vertex_length;
    data.dwReqVertexBufSize = c.req_vertex_buf_size;
    data.dwReqCommandBufSize = c.req_command_buf_size;
    std::vector<std::byte> user;
    if (c.flags & D3DHALDP2_USERMEMVERTICES) {
      if (!c.null_user_vertices) {
        // At least the bytes the call may read (offset + length × stride), zero-padded when
        // the capture carries fewer, so the device never reads past this buffer.
        const std::uint64_t stride = c.vertex_size ? c.vertex_size : fvf_stride(c.vertex_type);
        const std::uint64_t need = std::uint64_t{c.vertex_offset} + std::uint64_t{c.vertex_length} * stride;
        if (need > options_.max_user_vertex_bytes && need > c.user_vertices.size())
          return fail("the call may read " + std::to_string(need) + " bytes of user-memory vertices, beyond the replay limit");
        user.assign(std::max<std::uint64_t>({need, c.user_vertices.size(), 1}), std::byte{0});
        std::memcpy(user.data(), c.user_vertices.data(), c.user_vertices.size());
        data.lpVertices = user.data();
      }
    } else {
      data.lpDDVertex = static_cast<ULONG_PTR>(c.vertex_surface);
    }
    if (c.had_render_states) {
      render_states_.resize(D3DHAL_MAX_RSTATES_AND_STAGES);
      data.lpdwRStates = render_states_.data();
    }
    data.dwVertexSize = c.vertex_size;
    device_->DrawPrimitives2(data);
    if (data.ddrval != D3D_OK) ++result_.failed_calls;
    after_call();
    return frame_end(render_target_of(data.dwhContext), data.dwhContext, true);
  }
  bool apply(const CapRender& r) {
    if (!need_device()) return false;
    const ULONG_PTR context = r.context == 0 ? first_context_ : context_of(r.context);
    CommandBuffers cb;
    if (device_->command_buffers(context, cb) != S_OK)
      return fail("a Render on context " + std::to_string(r.context) + ", which does not exist");
    if (r.commands.size() > cb.command_buffer_size || r.allocations.size() > cb.allocation_list_size ||
        r.patches.size() > cb.patch_location_list_size)
      return fail("the Render's command bytes or lists do not fit the context's buffers (" +
                  std::to_string(cb.command_buffer_size) + " bytes, " + std::to_string(cb.allocation_list_size) +
                  " allocations, " + std::to_string(cb.patch_location_list_size) + " patches)");
    if (!r.commands.empty()) std::memcpy(cb.command_buffer, r.commands.data(), r.commands.size());
    std::copy(r.allocations.begin(), r.allocations.end(), cb.allocation_list);
    std::copy(r.patches.begin(), r.patches.end(), cb.patch_location_list);
    D3DDDICB_RENDER args{};
    args.CommandLength = r.command_length;
    args.CommandOffset = r.command_offset;
    args.NumAllocations = static_cast<UINT>(r.allocations.size());
    args.NumPatchLocations = static_cast<UINT>(r.patches.size());
    args.NewCommandBufferSize = r.new_command_buffer_size;
    args.NewAllocationListSize = r.new_allocation_list_size;
    args.NewPatchLocationListSize = r.new_patch_list_size;
    args.Flags.Value = r.flags;
    args.hContext = r.context == 0 ? nullptr : reinterpret_cast<HANDLE>(context);
    args.BroadcastContextCount = static_cast<UINT>(r.broadcast.size());
    for (std::size_t i = 0; i < r.broadcast.size(); ++i)
      args.BroadcastContext[i] = reinterpret_cast<HANDLE>(context_of(r.broadcast[i]));
    args.MarkerLogType = static_cast<D3DDDI_MARKERLOGTYPE>(r.marker_log_type & 0x7FFFFFFFu);
    args.RenderCBSequence = r.render_cb_sequence;
    if (device_->Render(args) != S_OK) ++result_.failed_calls;
    after_call();
    return frame_end(render_target_of(context), context, true);
  }
  bool apply(const CapUnlock&) { return need_device(); }  // the bytes come in a DATA chunk
  bool apply(const CapRename& r) {
    if (!need_device()) return false;
    // Mirror the rename so the device's instances (and allocation numbering) follow the
    // recorded session: a fresh instance holding the surface's recorded bytes.
    D3DDDIARG_LOCKASYNC lock{};
    lock.hResource = reinterpret_cast<HANDLE>(static_cast<std::uintptr_t>(r.handle));
    lock.Flags.Discard = 1;
    if (device_->LockAsync(lock) != S_OK) return true;  // nothing changes; the DATA chunks still apply
    const std::vector<std::byte>& shadow = shadow_[r.handle];
    const std::span<std::byte> current = device_->surface_bytes(r.handle);
    const std::size_t n = std::min(shadow.size(), current.size());
    if (n && lock.pSurfData) std::memcpy(lock.pSurfData, shadow.data(), n);
    D3DDDIARG_UNLOCKASYNC unlock{};
    unlock.hResource = lock.hResource;
    device_->UnlockAsync(unlock);
    D3DDDIARG_RENAME rename{};
    rename.hResource = lock.hResource;
    rename.hCookie = lock.hCookie;
    device_->Rename(rename);
    return true;
  }
  bool apply(const CapFlipChain& f) {
    if (!need_device()) return false;
    DWORD chain = 0;
    if (device_->create_flip_chain(f.surfaces, chain) != S_OK)
      return fail("create_flip_chain for chain " + std::to_string(f.chain) + " failed");
    chains_[f.chain] = {chain, f.surfaces.empty() ? 0u : f.surfaces[0]};
    return true;
  }
  bool apply(const CapFlip& f) {
    if (!need_device()) return false;
    const auto it = chains_.find(f.chain);
    if (it == chains_.end()) return fail("a flip of chain " + std::to_string(f.chain) + ", which was never created");
    if (device_->Flip(it->second.first) != S_OK) return fail("Flip of chain " + std::to_string(f.chain) + " failed");
    device_->wait_idle();
    FrontBuffer front;
    device_->poll_frame(it->second.first, front);  // takes the frame: the flip ends
    return frame_end(it->second.second, first_context_, false);
  }

  const CaptureFile& capture_;
  const ReplayOptions& options_;
  SimdTarget simd_ = SimdTarget::kAuto;  // options_.isa, read by run()
  ReplayResult& result_;
  std::unique_ptr<Device> device_;
  std::map<std::uint64_t, ULONG_PTR> contexts_;
  std::map<DWORD, std::pair<DWORD, DWORD>> chains_;  // recorded chain → (replay chain, front surface)
  std::map<DWORD, std::vector<std::byte>> shadow_;   // each surface's bytes as recorded
  std::vector<DWORD> render_states_;
  ULONG_PTR first_context_ = 0;
  std::size_t offset_ = 0;
  bool stop_ = false;
  Clock::time_point last_end_, last_draw_end_;
};

}  // namespace

bool replay_capture(const CaptureFile& capture, const ReplayOptions& options, ReplayResult& result) {
  return Replayer(capture, options, result).run();
}

bool replay_capture(std::span<const std::byte> bytes, const ReplayOptions& options, ReplayResult& result) {
  CaptureFile capture;
  result = ReplayResult{};
  if (!read_capture(bytes, capture, &result.error, options.read)) return false;
  return replay_capture(capture, options, result);
}

bool replay_capture_file(const std::string& path, const ReplayOptions& options, ReplayResult& result) {
  std::vector<std::byte> bytes;
  result = ReplayResult{};
  if (!load_capture_bytes(path, bytes, &result.error)) return false;
  return replay_capture(std::span<const std::byte>(bytes), options, result);
}

}  // namespace dp2
