// Automatic replay (issue 16 item 3): the queue side of AutoGraph (auto_graph.hpp). Internal
// to the core.
//
// Once a queue's AutoGraph has recognised a repeating period, the kernels of the next unit
// are held as a kernel fusion holds them (an automatic FusionSession: the same early release
// when another command depends on them, a wait, a host access, a buffer's destruction, the
// runtime's shutdown, and also a poll of the event submit returned), and submit returns the
// unit's command event. When the unit is complete it is submitted as one task: the kernels
// as one command group (group_of_kernels) replayed by the device's backend
// (device_graph.hpp), keyed by the pattern so that later units replay the same device graph
// with their scalars; the command completes after it. Anything else releases what is held
// at once as plain submissions, in order, with the same results, events and errors as if
// nothing had been held.
// Thread-safety: auto_replay and release_automatic_locked are called with the queue's
// submit_mutex held; release_automatic takes it.
#pragma once

#include <memory>

#include "command_group.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class QueueState;
class RuntimeState;

// The event submit returns when `group` was held (taken: its unit replays later), nullptr
// when the caller submits it as usual (anything held was released first; `group` is left).
std::shared_ptr<TaskEvent> auto_replay(RuntimeState& runtime,
                                       const std::shared_ptr<QueueState>& queue,
                                       std::unique_ptr<CommandGroup>& group);
// Releases the kernels the queue holds for automatic replay, as plain submissions.
void release_automatic_locked(RuntimeState& runtime, QueueState& queue);
// The same, taking the queue's submit_mutex, and ends the pattern (start_fusion, recording).
void release_automatic(RuntimeState& runtime, QueueState& queue);
// Gives an in-order queue its AutoGraph when the runtime's config turns automatic replay on.
void enable_auto_replay(const RuntimeState& runtime, QueueState& queue);

}  // namespace plexus::detail
