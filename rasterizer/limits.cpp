#include "dp2raster/limits.h"

namespace dp2::raster {

std::uint32_t packet_format_version() noexcept { return 1; }

}  // namespace dp2::raster
