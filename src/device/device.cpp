// The Device facade: surfaces, contexts, and the first two steps of D3dDrawPrimitives2
// (context, flip) before the front end takes the call; at its end the recorded commands
// are encoded and queued for the GPU worker. Kept small (STYLE.md: no god-object
// device): locks, submission and flips have their own files (device_impl.h).
#include <algorithm>

#include "ddi/executor.h"
#include "ddi/fvf.h"
#include "ddi/opcodes.h"
#include "device/device_impl.h"
#include "dp2raster/float_env.h"
#include "gpu/encoder.h"
#include "gpu/validate.h"

namespace dp2 {

namespace {
// DeviceDesc::simd in the rasterizer's terms (the enums mirror each other).
raster::Isa to_raster_isa(SimdTarget t) {
  static_assert(static_cast<int>(SimdTarget::kAvx2) == static_cast<int>(raster::Isa::kAvx2));
  static_assert(static_cast<int>(SimdTarget::kNeon) == static_cast<int>(raster::Isa::kNeon));
  static_assert(static_cast<int>(SimdTarget::kAvx512) == static_cast<int>(raster::Isa::kAvx512));
  return t <= SimdTarget::kAvx512 ? static_cast<raster::Isa>(t) : raster::Isa::kAuto;
}

// The targets in the order the tools list them. Their names are the rasterizer's
// (raster::isa_name), the one table: Diagnostics::simd prints the same names the tools
// read back.
constexpr SimdTarget kSimdTargets[] = {SimdTarget::kAuto, SimdTarget::kScalar, SimdTarget::kSse41,
                                       SimdTarget::kAvx2, SimdTarget::kAvx512, SimdTarget::kNeon};
std::string_view simd_target_name(SimdTarget t) noexcept { return raster::isa_name(to_raster_isa(t)); }
}  // namespace

bool simd_target_from_name(std::string_view name, SimdTarget& out) noexcept {
  for (const SimdTarget t : kSimdTargets)
    if (simd_target_name(t) == name) {
      out = t;
      return true;
    }
  return false;
}

std::string simd_target_names() {
  std::string out;
  for (const SimdTarget t : kSimdTargets) (out.empty() ? out : out += ", ") += simd_target_name(t);
  return out;
}

const char* kernel_key_name(std::size_t key) noexcept {
  static_assert(kKernelKeyCount == raster::kKernelKeyCount);
  return raster::kernel_key_name(key);
}

namespace detail {

namespace {
std::vector<memory::SegmentDesc> segments_for(const DeviceDesc& desc) {
  memory::SegmentDesc segment;
  segment.size = desc.video_memory_size;
  segment.external = desc.video_memory;
  return {segment};
}
}  // namespace

DeviceImpl::DeviceImpl(const DeviceDesc& device_desc)
    : desc(device_desc),
      memory(segments_for(device_desc), fences),
      surfaces(memory),
      gpu(memory, device_desc.render_threads,
          raster::HostExecutor{device_desc.executor_user, device_desc.executor_parallel_for},
          to_raster_isa(device_desc.simd)) {
  fences.gpu = &gpu;
  memory.set_system_budget(device_desc.system_memory_budget);
}

void DeviceImpl::wait_for_surface(DWORD handle) {
  memory::AllocationHandle allocation = 0;
  {
    std::lock_guard lock(table);
    if (const Surface* s = surfaces.find(handle)) allocation = s->allocation;
  }
  if (const auto info = memory.info(allocation)) gpu.wait(std::max(info->last_read, info->last_write));
}

void DeviceImpl::observe_surfaces() {
  if (!observer) return;
  surfaces.for_each([&](DWORD handle, const Surface& s) { observer->surface_contents(handle, surfaces.bytes(s)); });
}

void DeviceImpl::submit_records(ULONG_PTR handle, Context& context) {
  if (context.commands.records().empty()) return;
  // The buffers come from the pool, sized once for what the records need: a steady
  // stream of calls reuses the buffers the worker gave back.
  gpu::SpareBuffers& spares = gpu.spares();
  gpu::EncodedBuffer encoded;
  encoded.commands = spares.commands(gpu::encoded_size(context.commands));
  encoded.allocations = spares.allocations(0);
  encoded.patches = spares.patches(0);
  encoded.clear();
  const gpu::SurfaceResolver resolve = [&](DWORD surface) -> std::optional<gpu::SurfaceBinding> {
    const Surface* s = surfaces.find(surface);
    if (!s || s->desc.kind == SurfaceKind::kVertexBuffer || s->desc.kind == SurfaceKind::kIndexBuffer ||
        s->desc.kind == SurfaceKind::kCommandBuffer)
      return std::nullopt;
    gpu::SurfaceBinding b;
    b.allocation = s->allocation;
    b.surface.format = static_cast<std::uint32_t>(s->desc.format);
    b.surface.width = s->desc.width;
    b.surface.height = s->desc.height;
    b.surface.pitch = s->pitch;
    b.surface.levels = s->desc.mip_levels;
    b.surface.color_key = s->desc.color_key;
    b.surface.flags = s->desc.has_color_key ? DP2GPU_SURFACE_HAS_COLOR_KEY : 0u;
    return b;
  };
  gpu::encode(context.commands, resolve, encoded);
  // A missing texture handle: the stage samples as if no texture were bound; counted.
  diagnostics.missing_textures += encoded.unresolved_textures;
  // The encoder's output passes the same validation as a Render from outside, so the
  // worker can trust every buffer it runs.
  const HRESULT hr = gpu::validate_submission(encoded.encoded(), encoded.allocations, encoded.patches,
                                              [&](std::uint32_t a) { return memory.info(a).has_value(); }, validation_slots);
  if (hr != S_OK) {
    ++diagnostics.draws_skipped;
    spares.give(std::move(encoded.commands));
    spares.give(std::move(encoded.allocations));
    spares.give(std::move(encoded.patches));
    return;
  }
  gpu::Submission s;
  s.context = handle;
  s.command_end = encoded.command_size;
  s.allocation_count = encoded.allocations.size();
  s.patch_count = encoded.patches.size();
  s.commands = std::move(encoded.commands);
  s.allocations = std::move(encoded.allocations);
  s.patches = std::move(encoded.patches);
  gpu.submit(std::move(s));
}

}  // namespace detail

std::vector<std::string> Diagnostics::not_rendered() const {
  std::vector<std::string> lines;
  for (int op = 0; op < 256; ++op)
    if (commands_not_rendered[op] != 0)
      lines.push_back("D3DDP2OP_" + std::string(ddi::opcode_name(static_cast<std::uint8_t>(op))) + ": " +
                      std::to_string(commands_not_rendered[op]) + " kept without effect on pixels");
  return lines;
}

Device::Device(const DeviceDesc& desc) : impl_(std::make_unique<detail::DeviceImpl>(desc)) {}
Device::~Device() = default;

HRESULT Device::create_surface(DWORD handle, const SurfaceDesc& desc) {
  std::lock_guard lock(impl_->table);
  const HRESULT hr = impl_->surfaces.create(handle, desc);
  if (hr == D3D_OK && impl_->observer) impl_->observer->surface_created(handle, desc);
  return hr;
}

HRESULT Device::destroy_surface(DWORD handle) {
  std::lock_guard lock(impl_->table);
  const HRESULT hr = impl_->surfaces.destroy(handle);
  if (hr == D3D_OK && impl_->observer) impl_->observer->surface_destroyed(handle);
  return hr;
}

std::span<std::byte> Device::surface_bytes(DWORD handle) {
  impl_->wait_for_surface(handle);
  std::lock_guard lock(impl_->table);
  const detail::Surface* s = impl_->surfaces.find(handle);
  return s ? impl_->surfaces.bytes(*s) : std::span<std::byte>{};
}

PngImage Device::surface_image(DWORD handle, ULONG_PTR context) const {
  impl_->wait_for_surface(handle);
  std::lock_guard lock(impl_->table);
  PngImage image;
  const detail::Surface* s = impl_->surfaces.find(handle);
  if (!s) return image;
  image.format = s->desc.format;
  image.width = s->desc.width;
  image.height = s->desc.height;
  image.pitch = s->pitch;
  image.data = impl_->surfaces.bytes(*s).data();
  if (const auto ctx = impl_->contexts.find(context); ctx != impl_->contexts.end()) {
    const state::StateBlock& st = ctx->second->state;
    if (const auto p = st.surface_palette.find(handle); p != st.surface_palette.end())
      if (const auto pal = st.palettes.find(p->second); pal != st.palettes.end()) {
        image.palette = pal->second.entries.data();
        image.palette_alpha = (pal->second.flags & DDRAWIPAL_ALPHA) != 0;
      }
  }
  return image;
}

bool Device::write_png(DWORD handle, const std::string& path, bool keep_alpha, ULONG_PTR context,
                       std::string* error) const {
  const PngImage image = surface_image(handle, context);
  if (!image.data) {
    if (error) *error = "no surface with handle " + std::to_string(handle);
    return false;
  }
  return dp2::write_png(path, image, keep_alpha, error);
}

HRESULT Device::set_flip_in_progress(DWORD handle, bool in_progress) {
  std::lock_guard lock(impl_->table);
  detail::Surface* s = impl_->surfaces.find(handle);
  if (!s) return E_INVALIDARG;
  s->flip_in_progress = in_progress;
  return D3D_OK;
}

HRESULT Device::create_context(const ContextDesc& desc, ULONG_PTR& out_handle) {
  std::lock_guard lock(impl_->table);
  if (impl_->contexts.size() >= detail::DeviceImpl::kMaxContexts) return D3DHAL_OUTOFCONTEXTS;
  // Context handles are small integers handed out in order, never reused while the
  // device lives, so a stale handle is always detected.
  const ULONG_PTR handle = impl_->next_context++;
  impl_->contexts.emplace(handle, std::make_unique<detail::Context>(desc));
  detail::RenderBuffers& buffers = impl_->render_buffers[handle];
  buffers.command_size = detail::DeviceImpl::kDefaultCommandBufferSize;
  buffers.allocation_size = detail::DeviceImpl::kDefaultAllocationListSize;
  buffers.patch_size = detail::DeviceImpl::kDefaultPatchListSize;
  buffers.commands = impl_->gpu.spares().commands(buffers.command_size);
  buffers.allocations = impl_->gpu.spares().allocations(buffers.allocation_size);
  buffers.patches = impl_->gpu.spares().patches(buffers.patch_size);
  buffers.next_sequence = desc.free_threaded ? detail::DeviceImpl::kFreeThreadedSequenceStart : 1u;
  out_handle = handle;
  if (impl_->observer) impl_->observer->context_created(handle, desc);
  return D3D_OK;
}

HRESULT Device::destroy_context(ULONG_PTR handle) {
  {
    std::lock_guard lock(impl_->table);
    if (!impl_->contexts.erase(handle)) return D3DHAL_CONTEXT_BAD;
    impl_->render_buffers.erase(handle);
    if (impl_->observer) impl_->observer->context_destroyed(handle);
  }
  // Queued work of the context that has not started is cancelled; its fences still
  // complete, in order, so nobody waits forever.
  impl_->gpu.cancel(handle);
  return D3D_OK;
}

void Device::set_unknown_command_callback(UnknownCommandCallback callback) {
  std::lock_guard lock(impl_->table);
  impl_->unknown_command = std::move(callback);
}

DWORD Device::DrawPrimitives2(D3DHAL_DRAWPRIMITIVES2DATA& data) {
  // The front end's own float arithmetic (MULTIPLYTRANSFORM's matrix product) in dp2's
  // floating-point environment, not the caller's (float_env.h).
  const raster::DefaultFloatEnvironment fp;
  std::lock_guard lock(impl_->table);
  if (impl_->observer) {
    impl_->observe_surfaces();
    // The call's own bytes: its command stream, and user-memory vertices it may read.
    std::span<const std::byte> commands;
    if (data.lpDDCommands <= 0xFFFFFFFFu)
      if (const detail::Surface* s = impl_->surfaces.find(static_cast<DWORD>(data.lpDDCommands))) {
        const std::span<const std::byte> all = impl_->surfaces.bytes(*s);
        const std::size_t start = std::min<std::size_t>(data.dwCommandOffset, all.size());
        commands = all.subspan(start, std::min<std::size_t>(data.dwCommandLength, all.size() - start));
      }
    std::span<const std::byte> user_vertices;
    const std::uint64_t stride = data.dwVertexSize ? data.dwVertexSize : ddi::fvf_stride(data.dwVertexType);
    const std::uint64_t user_bytes = std::uint64_t{data.dwVertexOffset} + std::uint64_t{data.dwVertexLength} * stride;
    if ((data.dwFlags & D3DHALDP2_USERMEMVERTICES) && data.lpVertices && user_bytes <= (std::uint64_t{1} << 31))
      user_vertices = {static_cast<const std::byte*>(data.lpVertices), static_cast<std::size_t>(user_bytes)};
    impl_->observer->draw_primitives2(data, commands, user_vertices);
  }
  // 1. "Ensure that the context handle ... is valid" (D3dDrawPrimitives2 page).
  const auto it = impl_->contexts.find(data.dwhContext);
  if (it == impl_->contexts.end()) {
    data.dwErrorOffset = 0;
    data.ddrval = D3DHAL_CONTEXT_BAD;
    return DDHAL_DRIVER_HANDLED;
  }
  detail::Context& context = *it->second;
  // 2. "Check that a flip to the drawing surface associated with the context is not in
  //    progress ... set ddrval to DDERR_WASSTILLDRAWING and return DDHAL_DRIVER_HANDLED."
  if (const detail::Surface* target = impl_->surfaces.find(context.state.render_target);
      target && target->flip_in_progress) {
    data.dwErrorOffset = 0;
    data.ddrval = DDERR_WASSTILLDRAWING;
    return DDHAL_DRIVER_HANDLED;
  }
  // The previous call's records stay inspectable (inspect_context) until this point.
  context.commands.reset();
  // 3–5. Locate the commands and vertices, check the FVF, run the commands.
  ddi::ExecutorEnv env{impl_->surfaces, context, impl_->diagnostics, impl_->unknown_command, impl_->desc};
  ddi::execute_draw_primitives2(data, env);
  // Queue what the call recorded — on failure too: the commands before the failing one
  // stand. The call never waits for the GPU: user-memory vertices were copied while
  // recording, so the caller may reuse them at once; a vertex buffer's stay where they
  // are, and a Lock on it waits for the draw (or renames with Discard, or does not wait
  // with NoOverwrite), as for a hardware driver.
  impl_->submit_records(data.dwhContext, context);
  if (data.ddrval == D3D_OK) ddi::swap_buffers(data, impl_->surfaces);
  return DDHAL_DRIVER_HANDLED;
}

void Device::set_render_threads(unsigned threads) { impl_->gpu.set_render_threads(threads); }

void Device::set_observer(DeviceObserver* observer) {
  std::lock_guard lock(impl_->table);
  impl_->observer = observer;
}

const DeviceDesc& Device::desc() const noexcept { return impl_->desc; }

Diagnostics Device::diagnostics() const {
  // A sync point: the worker's counters are complete once queued work has run.
  impl_->gpu.wait_idle();
  std::lock_guard lock(impl_->table);
  Diagnostics d = impl_->diagnostics;
  const gpu::BackendCounters& c = impl_->gpu.counters();
  d.draws_skipped += c.draws_skipped.load();
  d.missing_textures += c.missing_textures.load();
  d.state_values_out_of_range += c.state_values_out_of_range.load();
  d.primitives_rejected += c.primitives_rejected.load();
  d.buffers_executed += c.buffers_executed.load();
  for (std::size_t k = 0; k < kKernelKeyCount; ++k) d.kernel_triangles[k] += c.kernel_triangles[k].load();
  d.simd = raster::isa_name(raster::resolve_isa(to_raster_isa(impl_->desc.simd)));
  return d;
}

const detail::Context* Device::inspect_context(ULONG_PTR handle) const noexcept {
  std::lock_guard lock(impl_->table);
  const auto it = impl_->contexts.find(handle);
  return it == impl_->contexts.end() ? nullptr : it->second.get();
}

}  // namespace dp2
