// D3DDP2OP_STATESET: recording, executing, capturing and deleting state blocks
// (see dp2_call.h).
#include <algorithm>
#include <cstring>

#include "ddi/dp2_call.h"
#include "ddi/fvf.h"

namespace dp2::ddi {

void Dp2Call::record_into_state_set(const Command& cmd) {
  // Each record becomes its own one-record command, so CAPTURE can refresh it alone.
  detail::StateSet& set = env_.context.recording;
  if (cmd.info->shape == PayloadShape::kVariable) {
    for_each_variable_record(cmd, [&](std::span<const std::byte> rec) {
      set.push_back({cmd.op, std::vector<std::byte>(rec.begin(), rec.end())});
    });
    return;
  }
  const std::size_t size = cmd.info->item_size;
  for (std::size_t i = 0; i < cmd.count; ++i) {
    const auto rec = cmd.body.subspan(i * size, size);
    set.push_back({cmd.op, std::vector<std::byte>(rec.begin(), rec.end())});
  }
}

CommandResult Dp2Call::state_set(const Command& cmd) {
  detail::Context& ctx = env_.context;
  const auto recs = cmd.records<D3DHAL_DP2STATESET>();
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const auto r = recs[i];
    switch (r.dwOperation) {
      case D3DHAL_STATESETBEGIN:
        ctx.recording_state_set = true;
        ctx.recording_handle = r.dwParam;
        ctx.recording.clear();
        break;
      case D3DHAL_STATESETEND:
        if (!ctx.recording_state_set) return D3DERR_COMMAND_UNPARSED;
        ctx.state_sets[ctx.recording_handle] = std::move(ctx.recording);
        ctx.recording = {};
        ctx.recording_state_set = false;
        break;
      case D3DHAL_STATESETDELETE:
        ctx.state_sets.erase(r.dwParam);
        break;
      case D3DHAL_STATESETEXECUTE: {
        const auto it = ctx.state_sets.find(r.dwParam);
        if (it == ctx.state_sets.end()) return D3DERR_COMMAND_UNPARSED;
        for (const detail::StateSetEntry& e : it->second) {
          Command one;
          one.op = e.op;
          one.count = 1;
          one.info = find_opcode(e.op);
          one.payload = one.body = e.payload;
          if (CommandResult res = state_command(one); res != D3D_OK) return res;
        }
        break;
      }
      case D3DHAL_STATESETCAPTURE: {
        // Refresh each recorded value from the current state (render and stage states,
        // viewport, W and Z ranges, material, transforms, clip planes).
        const auto it = ctx.state_sets.find(r.dwParam);
        if (it == ctx.state_sets.end()) return D3DERR_COMMAND_UNPARSED;
        const state::StateBlock& s = ctx.state;
        for (detail::StateSetEntry& e : it->second) {
          std::byte* p = e.payload.data();
          auto put = [&](const auto& value, std::size_t at = 0) { std::memcpy(p + at, &value, sizeof value); };
          switch (e.op) {
            case D3DDP2OP_RENDERSTATE: {
              DWORD state;
              std::memcpy(&state, p, sizeof state);
              put(s.render_state(state), offsetof(D3DHAL_DP2RENDERSTATE, dwState));
              break;
            }
            case D3DDP2OP_TEXTURESTAGESTATE: {
              D3DHAL_DP2TEXTURESTAGESTATE t;
              std::memcpy(&t, p, sizeof t);
              t.dwValue = s.texture_stage_state(t.wStage, t.TSState);
              put(t);
              break;
            }
            case D3DDP2OP_VIEWPORTINFO:
              put(D3DHAL_DP2VIEWPORTINFO{s.viewport.x, s.viewport.y, s.viewport.width, s.viewport.height});
              break;
            case D3DDP2OP_WINFO: put(s.winfo); break;
            case D3DDP2OP_ZRANGE: put(s.zrange); break;
            case D3DDP2OP_SETMATERIAL: put(s.material); break;
            case D3DDP2OP_SETTRANSFORM: {
              DWORD type;
              std::memcpy(&type, p, sizeof type);
              put(s.transform_or_identity(type), offsetof(D3DHAL_DP2SETTRANSFORM, matrix));
              break;
            }
            case D3DDP2OP_SETCLIPPLANE: {
              DWORD index;
              std::memcpy(&index, p, sizeof index);
              if (index < state::kMaxClipPlanes) put(s.clip_planes[index], offsetof(D3DHAL_DP2SETCLIPPLANE, plane));
              break;
            }
            default:
              break;  // lights keep their recorded data
          }
        }
        break;
      }
      case D3DHAL_STATESETCREATE:
        // DX8 pure devices: create a set of a predefined type (sbType). dp2 keeps an
        // empty set under the handle; capturing predefined groups is not done yet.
        ctx.state_sets[r.dwParam] = {};
        not_rendered(cmd);
        break;
      default:
        return D3DERR_COMMAND_UNPARSED;
    }
  }
  return D3D_OK;
}


}  // namespace dp2::ddi
