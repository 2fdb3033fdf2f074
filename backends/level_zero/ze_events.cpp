#include "ze_events.hpp"

#include "plexus/log.hpp"

namespace plexus::level_zero {
namespace {
constexpr std::uint32_t events_per_pool = 256;
}  // namespace

ZeEventPool::ZeEventPool(const ZeLoader& loader, ze_context_handle_t context,
                         ze_device_handle_t device, bool timestamps)
    : loader_(loader), context_(context), device_(device), timestamps_(timestamps) {}

ZeEventPool::~ZeEventPool() {
  for (const auto& event : all_) loader_.event_destroy(event->handle);
  for (ze_event_pool_handle_t pool : pools_) loader_.event_pool_destroy(pool);
}

std::shared_ptr<ZeEvent> ZeEventPool::acquire() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) {
    ze_event_pool_desc_t description{};
    description.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
    description.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
                        (timestamps_ ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP : 0);
    description.count = events_per_pool;
    ze_device_handle_t device = device_;
    ze_event_pool_handle_t pool = nullptr;
    ZeLoader::check("zeEventPoolCreate",
                    loader_.event_pool_create(context_, &description, 1, &device, &pool));
    pools_.push_back(pool);
    for (std::uint32_t i = 0; i < events_per_pool; ++i) {
      ze_event_desc_t event{};
      event.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
      event.index = i;
      event.signal = ZE_EVENT_SCOPE_FLAG_HOST;
      event.wait = ZE_EVENT_SCOPE_FLAG_HOST;
      auto made = std::make_unique<ZeEvent>();
      made->timestamps = timestamps_;
      ZeLoader::check("zeEventCreate", loader_.event_create(pool, &event, &made->handle));
      free_.push_back(made.get());
      all_.push_back(std::move(made));
    }
  }
  ZeEvent* event = free_.back();
  free_.pop_back();
  return std::shared_ptr<ZeEvent>(event, [this](ZeEvent* released) { release(released); });
}

void ZeEventPool::release(ZeEvent* event) noexcept {
  if (const ze_result_t result = loader_.event_host_reset(event->handle);
      result != ZE_RESULT_SUCCESS) {
    logger().warn("level_zero backend: {}", ZeLoader::describe_failure("zeEventHostReset", result));
    return;  // not reused: it may still be signalled
  }
  std::lock_guard lock(mutex_);
  free_.push_back(event);
}

}  // namespace plexus::level_zero
