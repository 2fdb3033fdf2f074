#include "fusion_plan.hpp"

#include <algorithm>

#include "plexus/error.hpp"

namespace plexus::fusion_llvm {

namespace {

std::string text(const std::array<std::size_t, 3>& v, std::size_t dims) {
  std::string out = "{";
  for (std::size_t d = 0; d < dims; ++d) out += (d ? ", " : "") + std::to_string(v[d]);
  return out + "}";
}

std::string kernel_name(const FusionRequest& request, std::size_t i) {
  return "kernel " + std::to_string(i) + " ('" + request.kernels[i].info.name + "')";
}

bool is_pointer(KernelArgKind kind) {
  return kind == KernelArgKind::global_pointer || kind == KernelArgKind::constant_pointer;
}

// The fused arguments, one per identity; malformed requests throw.
void plan_arguments(const FusionRequest& request, FusionPlan& plan) {
  for (std::size_t k = 0; k < request.kernels.size(); ++k) {
    const FusionKernel& kernel = request.kernels[k];
    if (kernel.args.size() != kernel.info.args.size())
      throw error(error_category::invalid_argument,
                  "fusion: " + kernel_name(request, k) + " has " +
                      std::to_string(kernel.info.args.size()) + " parameters but " +
                      std::to_string(kernel.args.size()) + " fusion arguments were given");
    std::vector<std::size_t> indices;
    for (std::size_t p = 0; p < kernel.args.size(); ++p) {
      const FusionArgument& arg = kernel.args[p];
      const KernelArgInfo& info = kernel.info.args[p];
      if (info.kind == KernelArgKind::local_pointer || info.kind == KernelArgKind::sampler ||
          info.kind == KernelArgKind::image)
        throw error(error_category::unsupported,
                    "fusion: parameter " + std::to_string(p) + " of " + kernel_name(request, k) +
                        " is a __local pointer, sampler or image, which fusion does not take");
      if (arg.constant_value && is_pointer(info.kind))
        throw error(error_category::invalid_argument,
                    "fusion: parameter " + std::to_string(p) + " of " + kernel_name(request, k) +
                        " is a pointer: only scalars can be declared constant");
      if (arg.constant_value && arg.constant_value->size() != info.size)
        throw error(error_category::invalid_argument,
                    "fusion: the constant for parameter " + std::to_string(p) + " of " +
                        kernel_name(request, k) + " has " +
                        std::to_string(arg.constant_value->size()) + " bytes, the parameter " +
                        std::to_string(info.size));
      auto found = std::find_if(plan.args.begin(), plan.args.end(),
                                [&](const PlannedArgument& a) { return a.identity == arg.identity; });
      if (found == plan.args.end()) {
        PlannedArgument planned;
        planned.identity = arg.identity;
        planned.kind = info.kind;
        planned.size = info.size;
        planned.promotion = is_pointer(info.kind) ? arg.promotion : Promotion::none;
        planned.constant = arg.constant_value;
        plan.args.push_back(std::move(planned));
        found = plan.args.end() - 1;
      } else if (is_pointer(found->kind) != is_pointer(info.kind) || found->size != info.size) {
        throw error(error_category::invalid_argument,
                    "fusion: identity " + std::to_string(arg.identity) + " is passed to " +
                        kernel_name(request, k) + " as a different kind or size of argument");
      } else if (found->constant != arg.constant_value) {
        throw error(error_category::invalid_argument,
                    "fusion: identity " + std::to_string(arg.identity) +
                        " has different constant values in different kernels");
      }
      indices.push_back(static_cast<std::size_t>(found - plan.args.begin()));
    }
    plan.arg_of.push_back(std::move(indices));
  }
}

// Promotion sizes: the same for every kernel that uses the argument, or refused.
void plan_promotions(const FusionRequest& request, FusionPlan& plan) {
  for (std::size_t a = 0; a < plan.args.size(); ++a) {
    PlannedArgument& arg = plan.args[a];
    if (arg.promotion == Promotion::none) continue;
    const bool local = arg.promotion == Promotion::local_memory;
    std::string refused;
    std::optional<std::size_t> size;
    for (std::size_t k = 0; k < request.kernels.size() && refused.empty(); ++k) {
      for (std::size_t p = 0; p < plan.arg_of[k].size() && refused.empty(); ++p) {
        if (plan.arg_of[k][p] != a) continue;
        const FusionArgument& given = request.kernels[k].args[p];
        const NdRange& range = request.kernels[k].range;
        if (given.promotion != arg.promotion) {
          refused = "the kernels give it different promotion hints";
        } else if (given.buffer_bytes == 0) {
          refused = "its buffer size is not given";
        } else if (local && !range.has_local_size()) {
          refused = kernel_name(request, k) + " has no local size (local promotion needs one)";
        } else {
          const std::size_t parts =
              local ? range.global_count() / (range.local[0] * range.local[1] * range.local[2])
                    : range.global_count();
          const std::size_t bytes = given.buffer_bytes / parts;
          if (bytes == 0 || given.buffer_bytes % parts != 0)
            refused = "its " + std::to_string(given.buffer_bytes) + " bytes do not divide into " +
                      std::to_string(parts) + (local ? " work-groups" : " work-items");
          else if (size && *size != bytes)
            refused = "the kernels give it different sizes per " +
                      std::string(local ? "work-group" : "work-item");
          else
            size = bytes;
        }
      }
    }
    if (refused.empty() && size) {
      arg.promoted_bytes = *size;
    } else {
      plan.warnings.push_back("argument " + std::to_string(arg.identity) + " is not promoted to " +
                              (local ? "local" : "private") + " memory: " + refused);
      arg.promotion = Promotion::none;
    }
  }
}

}  // namespace

std::variant<FusionPlan, std::string> plan_fusion(const FusionRequest& request) {
  if (request.kernels.empty()) return std::string("the fusion list is empty");
  // Non-uniform work-groups are a reason, not a malformed range.
  for (std::size_t k = 0; k < request.kernels.size(); ++k) {
    const NdRange& range = request.kernels[k].range;
    if (!range.has_local_size()) continue;
    for (std::size_t d = 0; d < 3; ++d)
      if (range.local[d] != 0 && range.global[d] % range.local[d] != 0)
        return "cannot fuse non-uniform work-groups: " + kernel_name(request, k) +
               " has global size " + text(range.global, range.dimensions) + " and local size " +
               text(range.local, range.dimensions);
  }
  for (std::size_t k = 0; k < request.kernels.size(); ++k)
    validate(request.kernels[k].range, "fusion: " + kernel_name(request, k));

  FusionPlan plan;
  const NdRange* local = nullptr;
  for (std::size_t k = 0; k < request.kernels.size(); ++k) {
    const NdRange& range = request.kernels[k].range;
    if (range.offset != request.kernels[0].range.offset)
      return "cannot fuse kernels with different global offsets (" + kernel_name(request, 0) +
             " and " + kernel_name(request, k) + ")";
    if (!range.has_local_size()) continue;
    if (local && local->local != range.local)
      return "cannot fuse kernels with different local sizes (" +
             text(local->local, local->dimensions) + " and " +
             text(range.local, range.dimensions) + ")";
    local = &range;
  }
  // The fused range: the largest launch (the fused kernel runs no more work-items than it).
  std::size_t largest = 0;
  for (std::size_t k = 1; k < request.kernels.size(); ++k)
    if (request.kernels[k].range.global_count() > request.kernels[largest].range.global_count())
      largest = k;
  plan.range = request.kernels[largest].range;
  if (local) {
    plan.range.local = local->local;
    for (std::size_t d = 0; d < 3; ++d)
      if (plan.range.global[d] % plan.range.local[d] != 0)
        return "cannot fuse: the local size " + text(local->local, local->dimensions) +
               " does not divide the fused global size " +
               text(plan.range.global, plan.range.dimensions) + " (non-uniform work-groups)";
  }
  const bool zero_offset = plan.range.offset == std::array<std::size_t, 3>{0, 0, 0};
  for (std::size_t k = 0; k < request.kernels.size(); ++k) {
    const NdRange& range = request.kernels[k].range;
    PlannedKernel kernel;
    kernel.range = range;
    kernel.remap_sizes = range.dimensions != plan.range.dimensions ||
                         range.global != plan.range.global;
    kernel.remap_global_id = range.dimensions != plan.range.dimensions ||
                             range.global[1] != plan.range.global[1] ||
                             range.global[2] != plan.range.global[2];
    kernel.guarded = range.global != plan.range.global;
    if (kernel.remap_global_id && range.has_local_size())
      return "cannot fuse: " + kernel_name(request, k) +
             " has a local size and its global ids would need remapping (shape " +
             text(range.global, range.dimensions) + " vs " +
             text(plan.range.global, plan.range.dimensions) + ")";
    if (kernel.remap_global_id && !zero_offset)
      return "cannot fuse: " + kernel_name(request, k) +
             " would need its global ids remapped, which needs zero global offsets";
    plan.kernels.push_back(kernel);
  }
  plan_arguments(request, plan);
  plan_promotions(request, plan);
  return plan;
}

}  // namespace plexus::fusion_llvm
