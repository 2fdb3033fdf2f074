// complete_fusion: the held kernels as a FusionRequest (each kernel's code as the engine
// takes it: host bitcode or SPIR as the bundle keeps it, the kernels' LLVM IR for native
// code such as PTX, see fusion_input.hpp; arguments by identity: a buffer's storage, a USM
// pointer, or one identity per scalar), fused through the runtime's program
// cache and the fusion component, then one command group with the union of the held
// kernels' requirements (promoted buffers left out: they are neither read nor written) and
// only their external dependencies. When fusion fails, the kernels run unfused (with a
// warning), or under fuse_or_fail the fusion command fails and the error is thrown.
#include <algorithm>
#include <map>

#include "buffer_storage.hpp"
#include "bundle_state.hpp"
#include "command_body.hpp"
#include "fusion_input.hpp"
#include "fusion_session.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "queue_state.hpp"
#include "runtime_state.hpp"

namespace plexus::detail {

namespace {

struct Built {
  FusionRequest request;
  std::string key;  // the program cache's key: a description of the request
  std::vector<std::vector<std::uint32_t>> identity;  // [kernel][argument]
  std::string reason;  // why no request could be made
};

void describe(std::string& key, const NdRange& range) {
  for (std::size_t d = 0; d < 3; ++d)
    key += std::to_string(range.global[d]) + "/" + std::to_string(range.local[d]) + "/" +
           std::to_string(range.offset[d]) + ",";
}

Built build_request(RuntimeState& runtime, const std::vector<HeldKernel>& held, Device& device,
                    const std::vector<FusionProperty>& properties) {
  Built built;
  FusionRequest& request = built.request;
  std::map<const void*, std::uint32_t> identities;
  std::uint32_t next = 0;
  for (const FusionProperty& property : properties)
    if (property.kind == FusionProperty::Kind::no_barriers) request.barrier = FusionBarrier::none;
  for (const HeldKernel& kernel_held : held) {
    const CommandGroup& group = *kernel_held.group;
    const Kernel& kernel = *group.kernel;
    const BundleImage* image = nullptr;
    for (const BundleImage& candidate : kernel.bundle()->images)
      if (candidate.device == &device &&
          std::any_of(candidate.kernels.begin(), candidate.kernels.end(),
                      [&](const KernelInfo& k) { return k.name == kernel.name(); }))
        image = &candidate;
    if (!image) {
      built.reason = "the code of kernel '" + kernel.name() + "' for this device is not known";
      return built;
    }
    if (kernel.info().bounds_checked) {  // its IR for fusion has no check record
      built.reason = "kernel '" + kernel.name() + "' is bounds-checked (checks = \"bounds\"); "
                     "checked kernels are not fused";
      return built;
    }
    if (kernel.info().cancellable) {  // its SPIR code takes a cancel cell the IR fusion lacks
      built.reason = "kernel '" + kernel.name() + "' is cancellable (cancel = \"work_group\"); "
                     "cancellable kernels are not fused";
      return built;
    }
    FusionInput input;
    try {
      input = fusion_input(runtime.programs, runtime.components->compiler(), *kernel.bundle(),
                           *image, kernel.name());
    } catch (const error& failure) {
      input.reason = "the LLVM IR of kernel '" + kernel.name() + "' for " +
                     std::string(to_string(image->format)) + ": " + failure.what();
    }
    if (!input.reason.empty()) {
      built.reason = input.reason;
      return built;
    }
    FusionKernel fused;
    fused.format = input.format;
    fused.binary.assign(input.binary.begin(), input.binary.end());
    fused.info = kernel.info();
    fused.range = group.range;
    request.target = image->load_format;
    request.target_architecture = image->architecture;
    std::vector<std::uint32_t> ids;
    for (const ArgumentSlot& slot : group.arguments) {
      FusionArgument arg;
      const void* what = nullptr;
      if (slot.kind == ArgumentSlot::Kind::accessor) {
        const Requirement& requirement = group.requirements[slot.requirement];
        what = requirement.storage.get();
        arg.buffer_bytes = requirement.storage->bytes();
        for (const FusionProperty& property : properties)
          if (property.kind == FusionProperty::Kind::promote && property.buffer == requirement.storage)
            arg.promotion = property.promotion;
      } else if (slot.kind == ArgumentSlot::Kind::pointer) {
        what = slot.pointer;
      } else if (slot.kind == ArgumentSlot::Kind::local) {
        built.reason = "kernel '" + kernel.name() + "' takes local memory arguments";
        return built;
      }
      if (what) {
        auto [it, inserted] = identities.emplace(what, next);
        if (inserted) ++next;
        arg.identity = it->second;
      } else {
        arg.identity = next++;
      }
      ids.push_back(arg.identity);
      fused.args.push_back(arg);
      built.key += std::to_string(arg.identity) + ":" +
                   std::to_string(static_cast<int>(arg.promotion)) + ":" +
                   std::to_string(arg.buffer_bytes) + ",";
    }
    built.key += kernel.name() + "@" + std::string(to_string(fused.format)) + ":" +
                 std::to_string(source_hash(std::string(
                                           reinterpret_cast<const char*>(fused.binary.data()),
                                           fused.binary.size()))) + ";";
    describe(built.key, fused.range);
    built.identity.push_back(std::move(ids));
    request.kernels.push_back(std::move(fused));
  }
  built.key += std::string(to_string(request.target)) + ";barrier " +
               std::to_string(static_cast<unsigned>(request.barrier));
  return built;
}

AccessMode merged(AccessMode a, AccessMode b) {
  if (a == b) return a;
  if (!writes(a) || !writes(b)) return AccessMode::read_write;  // one reads, one writes
  return AccessMode::read_write;
}

// The fused kernel's command group.
CommandGroup fused_group(RuntimeState& runtime, QueueState& queue, const std::vector<HeldKernel>& held,
                         const Built& built, const FusionResult& result) {
  CommandGroup group;
  group.runtime = held.front().group->runtime;
  group.device = queue.device;
  // One requirement per buffer identity (union of ranges and modes), promoted ones left out.
  std::map<std::uint32_t, std::size_t> requirement_of;
  for (std::size_t k = 0; k < held.size(); ++k) {
    const CommandGroup& from = *held[k].group;
    for (std::size_t a = 0; a < from.arguments.size(); ++a) {
      if (from.arguments[a].kind != ArgumentSlot::Kind::accessor) continue;
      const std::uint32_t identity = built.identity[k][a];
      if (std::find(result.promoted.begin(), result.promoted.end(), identity) !=
          result.promoted.end())
        continue;
      const Requirement& requirement = from.requirements[from.arguments[a].requirement];
      auto [it, inserted] = requirement_of.emplace(identity, group.requirements.size());
      if (inserted) {
        group.requirements.push_back(requirement);
        continue;
      }
      Requirement& into = group.requirements[it->second];
      into.mode = merged(into.mode, requirement.mode);
      for (std::size_t d = 0; d < 3; ++d) {
        const std::size_t begin = std::min(into.range.offset[d], requirement.range.offset[d]);
        const std::size_t end = std::max(into.range.offset[d] + into.range.extent[d],
                                         requirement.range.offset[d] + requirement.range.extent[d]);
        into.range.offset[d] = begin;
        into.range.extent[d] = end - begin;
      }
    }
  }
  for (std::uint32_t identity : result.arg_identities) {
    bool found = false;
    for (std::size_t k = 0; k < held.size() && !found; ++k) {
      for (std::size_t a = 0; a < built.identity[k].size() && !found; ++a) {
        if (built.identity[k][a] != identity) continue;
        ArgumentSlot slot = held[k].group->arguments[a];
        if (slot.kind == ArgumentSlot::Kind::accessor) slot.requirement = requirement_of.at(identity);
        group.arguments.push_back(std::move(slot));
        found = true;
      }
    }
  }
  // The fused kernel's bundle: loaded through the program cache.
  const ProgramKey key{source_hash(built.key), "kernel fusion", result.format, {}, built.key};
  CompiledProgram program{result.binary, result.format, {result.kernel}};
  auto bundle = std::make_shared<BundleState>();
  bundle->runtime = group.runtime;
  bundle->kernels = {result.kernel};
  bundle->add_module(queue.device, runtime.programs.load(*queue.device, key, program));
  runtime.attach(bundle);
  group.kernel = Kernel(bundle, &bundle->kernels.front());
  group.range = result.range;
  return group;
}

}  // namespace

std::shared_ptr<TaskEvent> complete_fusion(RuntimeState& runtime, QueueState& queue,
                                           const std::vector<FusionProperty>& properties) {
  std::shared_ptr<FusionSession> session = take_active(queue);
  if (!session) {
    std::lock_guard lock(queue.mutex);
    // Cancelled early (or never started): the fusion command's event is still valid.
    return queue.fusion ? queue.fusion->command : nullptr;
  }
  const bool fuse_or_fail =
      std::any_of(properties.begin(), properties.end(), [](const FusionProperty& p) {
        return p.kind == FusionProperty::Kind::fuse_or_fail;
      });
  std::string reason;
  std::shared_ptr<const FusionResult> result;
  Built built;
  if (session->held.empty()) {
    reason = "the fusion list is empty";
  } else if (!runtime.components->fusion()) {
    reason = "no fusion component is selected (set [fusion] use = \"llvm\")";
  } else {
    built = build_request(runtime, session->held, *queue.device, properties);
    reason = built.reason;
    if (reason.empty()) {
      try {
        result = runtime.programs.fuse(*runtime.components->fusion(), built.key, built.request);
        if (!result->fused) reason = result->reason;
      } catch (const error& failure) {
        reason = failure.what();
      }
    }
  }
  if (!reason.empty() && session->held.empty() && !fuse_or_fail) {
    release_unfused(runtime, queue, session);
    return session->command;
  }
  if (!reason.empty()) {
    if (fuse_or_fail) {
      auto failure = std::make_exception_ptr(
          error(error_category::unsupported, "complete_fusion (fuse or fail): " + reason));
      for (HeldKernel& held : session->held) held.event->mark_failed(failure);
      session->command->mark_failed(failure);
      std::rethrow_exception(failure);
    }
    logger().warn("complete_fusion: the {} kernels run unfused: {}", session->held.size(), reason);
    release_unfused(runtime, queue, session);
    return session->command;
  }
  for (const std::string& warning : result->warnings) logger().warn("complete_fusion: {}", warning);
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  for (const HeldKernel& held : session->held)
    for (const auto& dependency : held.dependencies)
      if (std::none_of(session->held.begin(), session->held.end(),
                       [&](const HeldKernel& h) { return h.event == dependency; }) &&
          std::find(dependencies.begin(), dependencies.end(), dependency) == dependencies.end())
        dependencies.push_back(dependency);
  auto fused_event = std::make_shared<TaskEvent>("kernel " + result->kernel.name);
  CommandGroup group = fused_group(runtime, queue, session->held, built, *result);
  auto body = std::make_shared<CommandBody>(runtime, std::move(group), fused_event);
  runtime.scheduler().submit(Task{fused_event, std::move(dependencies), {}, std::move(body)});
  // The held kernels never run: their events follow the fused kernel's.
  for (const HeldKernel& held : session->held)
    fused_event->on_done([fused_event, event = held.event] {
      if (fused_event->status() == TaskStatus::complete) event->mark_complete();
      else event->mark_failed(std::make_exception_ptr(
          error(error_category::device, "the fused kernel failed")));
    });
  session->held.clear();
  {
    std::lock_guard lock(queue.mutex);
    if (queue.order == QueueOrder::in_order) queue.last = session->command;
  }
  runtime.scheduler().submit(Task{session->command, {fused_event}, {}, nullptr});  // a join
  return session->command;
}

}  // namespace plexus::detail
