// ZeEventPool and ZeEvent: Level Zero events of one device, host-visible, made in pools of
// 256 (zeEventPoolCreate) as they are needed and recycled: an event is a shared_ptr whose
// last owner hands it back, reset (zeEventHostReset), for the next operation.
//
// Every operation a ZeQueue appends signals an event of its own and waits for the previous
// operation's, so that a queue runs in order; markers, timings and graphs keep the events
// they read alive by holding them. A pool made with `timestamps` gives events that also
// record when their command ran (ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP), for timing.
//
// Rules for holders: let go of an event only once it has signalled or nothing will wait for
// it any more (it is reset on release). Ownership: owned by its device; events must be
// released before it. Thread-safety: acquire() and the release are safe from any thread.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ze_loader.hpp"

namespace plexus::level_zero {

class ZeEventPool;

struct ZeEvent {
  ze_event_handle_t handle = nullptr;
  bool timestamps = false;  // from a pool that records kernel timestamps
};

class ZeEventPool {
 public:
  ZeEventPool(const ZeLoader& loader, ze_context_handle_t context, ze_device_handle_t device,
              bool timestamps);
  ~ZeEventPool();
  ZeEventPool(const ZeEventPool&) = delete;
  ZeEventPool& operator=(const ZeEventPool&) = delete;

  // An unsignalled event; throws plexus::error(device) when the driver cannot make one.
  std::shared_ptr<ZeEvent> acquire();

 private:
  void release(ZeEvent* event) noexcept;

  const ZeLoader& loader_;
  ze_context_handle_t context_;
  ze_device_handle_t device_;
  bool timestamps_;
  std::mutex mutex_;
  std::vector<ze_event_pool_handle_t> pools_;  // guarded by mutex_
  std::vector<ZeEvent*> free_;                 // guarded by mutex_
  std::vector<std::unique_ptr<ZeEvent>> all_;  // guarded by mutex_
};

}  // namespace plexus::level_zero
