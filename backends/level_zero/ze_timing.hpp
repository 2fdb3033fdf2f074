// ZeTiming: device timing for a ZeQueue (DeviceQueue::enable_timing). With timing on, the
// queue's operations signal events from the device's timestamp pool
// (ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP); a span keeps its first and last event, and its
// times are the first's global start and the last's global end (zeEventQueryKernelTimestamp,
// in device timer ticks of the device's timerResolution).
//
// Alignment to the host steady clock, one ClockPair per take(): zeDeviceGetGlobalTimestamps
// bracketed by two steady-clock reads, the device counter mapped to the middle of the
// bracket (best of 5; error <= half the bracket); measured again when older than one second
// (clock drift). Kernel timestamps keep only kernelTimestampValidBits bits: a time is read
// as the nearest one to the pair's device counter modulo that width.
//
// Thread-safety: the queue's one thread at a time; the timings take() returns may be read
// from any thread. Ownership: owned by its queue; its timings hold their events and may
// outlive the queue, not the device.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "plexus/device_queue.hpp"
#include "ze_events.hpp"

namespace plexus::level_zero {

class ZeDevice;

// A device timer value and the host time it corresponds to.
struct ZeClockPair {
  std::chrono::steady_clock::time_point host;
  std::uint64_t device_ticks = 0;
};

class ZeTiming {
 public:
  // Measures the first ClockPair; throws plexus::error(device) when the device cannot say
  // its time (zeDeviceGetGlobalTimestamps fails).
  explicit ZeTiming(const ZeDevice& device);

  // An operation of the queue, appended now with `event`: the span's first (when none is
  // open) and last.
  void add(const std::shared_ptr<ZeEvent>& event);
  // The open span (nullptr when it has no operation); starts a new one.
  std::shared_ptr<const OperationTiming> take();

 private:
  ZeClockPair calibrate() const;

  const ZeDevice& device_;
  ZeClockPair pair_;
  std::shared_ptr<ZeEvent> first_, last_;
};

}  // namespace plexus::level_zero
