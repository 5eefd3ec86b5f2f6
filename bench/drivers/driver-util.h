// driver-util.h: what the C++ drivers share: the data generator and
// the checksum of their results (FNV-1a over 64-bit values).

#ifndef LATEPGO_BENCH_DRIVER_UTIL_H
#define LATEPGO_BENCH_DRIVER_UTIL_H

#include <cstdint>

namespace {

struct Rng
{
  std::uint64_t s;
  std::uint32_t
  next ()
  {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return static_cast<std::uint32_t> ((s * 2685821657736338717ULL) >> 32);
  }
  int below (int n) { return static_cast<int> (next () % static_cast<std::uint32_t> (n)); }
};

std::uint64_t checksum = 1469598103934665603ULL;

void
mix (std::uint64_t v)
{
  checksum ^= v;
  checksum *= 1099511628211ULL;
}

} // namespace

#endif
