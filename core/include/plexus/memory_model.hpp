// MemoryModel: buffer state (AdaptiveCpp's buffer model). Per buffer and per device
// location: whether an allocation exists, which parts are valid (page tracking, the
// policy of each implementation), which earlier accesses conflict with a new one, and
// which ranges must be copied before an access can run.
//
// Thread-safety: implementations serialise calls on the same buffer; calls on different
// buffers may run concurrently. The memory model plans; it never copies data itself (the
// scheduler issues the copies it returns through the backends).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "plexus/access_range.hpp"
#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

using BufferId = std::uint64_t;
using LocationId = std::uint32_t;  // a device (or the host) as numbered by the scheduler

struct BufferDesc {
  std::size_t element_size = 1;
  Extent3 extent{1, 1, 1};
  Extent3 page_extent{0, 0, 0};  // 0: the policy's default
  bool host_data_valid = false;  // true when created from host data
};

struct RangeCopy {
  LocationId from = 0;
  LocationId to = 0;
  AccessRange range;
};

struct AccessPlan {
  std::vector<RangeCopy> copies;                          // to run before the access, in order
  std::vector<std::shared_ptr<TaskEvent>> dependencies;   // earlier conflicting accesses
};

class PLEXUS_API MemoryModel : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::memory;
  ~MemoryModel() override;

  virtual BufferId create_buffer(const BufferDesc& desc) = 0;
  virtual void destroy_buffer(BufferId buffer) = 0;

  // Records an access by `task` at `location` and returns what must happen first.
  virtual AccessPlan plan_access(BufferId buffer, const AccessRange& range, AccessMode mode,
                                 LocationId location, std::shared_ptr<TaskEvent> task) = 0;
};

}  // namespace plexus
