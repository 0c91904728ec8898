// The Device facade: owns the surface table and the contexts, and runs the first two
// steps of D3dDrawPrimitives2 (context, flip) before handing the call to the front end.
// Kept small on purpose (STYLE.md: no god-object device); the work lives in src/ddi.
#include <map>

#include "ddi/executor.h"
#include "ddi/opcodes.h"
#include "device/context.h"
#include "device/surface_table.h"
#include "dp2/device.h"
#include "gpu/backend.h"

namespace dp2 {

namespace detail {

class DeviceImpl {
 public:
  explicit DeviceImpl(const DeviceDesc& device_desc) : desc(device_desc) {}

  // Context handles are small integers handed out in order, never reused while the device
  // lives, so a stale handle is always detected.
  static constexpr std::size_t kMaxContexts = 1024;

  DeviceDesc desc;
  SurfaceTable surfaces;
  std::map<ULONG_PTR, std::unique_ptr<Context>> contexts;
  ULONG_PTR next_context = 1;
  Diagnostics diagnostics;
  UnknownCommandCallback unknown_command;
  gpu::Backend backend;
};

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

HRESULT Device::create_surface(DWORD handle, const SurfaceDesc& desc) { return impl_->surfaces.create(handle, desc); }

HRESULT Device::destroy_surface(DWORD handle) { return impl_->surfaces.destroy(handle); }

std::span<std::byte> Device::surface_bytes(DWORD handle) {
  detail::Surface* s = impl_->surfaces.find(handle);
  return s ? std::span<std::byte>(s->bytes) : std::span<std::byte>{};
}

PngImage Device::surface_image(DWORD handle, ULONG_PTR context) const {
  PngImage image;
  const detail::Surface* s = impl_->surfaces.find(handle);
  if (!s) return image;
  image.format = s->desc.format;
  image.width = s->desc.width;
  image.height = s->desc.height;
  image.pitch = s->pitch;
  image.data = s->bytes.data();
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
  detail::Surface* s = impl_->surfaces.find(handle);
  if (!s) return E_INVALIDARG;
  s->flip_in_progress = in_progress;
  return D3D_OK;
}

HRESULT Device::create_context(const ContextDesc& desc, ULONG_PTR& out_handle) {
  if (impl_->contexts.size() >= detail::DeviceImpl::kMaxContexts) return D3DHAL_OUTOFCONTEXTS;
  const ULONG_PTR handle = impl_->next_context++;
  impl_->contexts.emplace(handle, std::make_unique<detail::Context>(desc));
  out_handle = handle;
  return D3D_OK;
}

HRESULT Device::destroy_context(ULONG_PTR handle) { return impl_->contexts.erase(handle) ? D3D_OK : D3DHAL_CONTEXT_BAD; }

void Device::set_unknown_command_callback(UnknownCommandCallback callback) {
  impl_->unknown_command = std::move(callback);
}

DWORD Device::DrawPrimitives2(D3DHAL_DRAWPRIMITIVES2DATA& data) {
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
  // Render what the call recorded — on failure too: the commands before the failing one
  // stand. (Synchronous until the submission issue puts this behind fences.)
  gpu::BackendEnv backend_env{impl_->surfaces, context.state, context.desc().interface_version, impl_->diagnostics};
  impl_->backend.execute(context.commands, backend_env);
  return DDHAL_DRIVER_HANDLED;
}

void Device::set_render_threads(unsigned threads) { impl_->backend.set_threads(threads); }

const DeviceDesc& Device::desc() const noexcept { return impl_->desc; }
const Diagnostics& Device::diagnostics() const noexcept { return impl_->diagnostics; }

const detail::Context* Device::inspect_context(ULONG_PTR handle) const noexcept {
  const auto it = impl_->contexts.find(handle);
  return it == impl_->contexts.end() ? nullptr : it->second.get();
}

}  // namespace dp2
