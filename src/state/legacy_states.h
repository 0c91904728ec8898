// DX5-era render states mapped onto texture stage 0 (legacy_states.cpp).
#pragma once

#include "state/state_block.h"

namespace dp2::state {

// Called after every render state is stored; does nothing for non-legacy states.
void map_legacy_render_state(StateBlock& state, DWORD render_state, DWORD value);

}  // namespace dp2::state
