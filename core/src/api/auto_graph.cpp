#include "auto_graph.hpp"

#include <algorithm>

namespace plexus::detail {

namespace {

std::uint64_t mix(std::uint64_t hash, std::uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
  return hash;
}

bool same_range(const NdRange& a, const NdRange& b) {
  return a.dimensions == b.dimensions && a.global == b.global && a.local == b.local &&
         a.offset == b.offset;
}

}  // namespace

bool AutoGraph::Signature::operator==(const Signature& other) const {
  if (hash != other.hash || kernel != other.kernel || !same_range(range, other.range) ||
      requirements.size() != other.requirements.size() ||
      arguments.size() != other.arguments.size())
    return false;
  for (std::size_t i = 0; i < requirements.size(); ++i) {
    const Requirement& a = requirements[i];
    const Requirement& b = other.requirements[i];
    if (a.storage != b.storage || a.mode != b.mode || a.range.offset != b.range.offset ||
        a.range.extent != b.range.extent)
      return false;
  }
  for (std::size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].kind != other.arguments[i].kind || arguments[i].value != other.arguments[i].value)
      return false;
  return true;
}

AutoGraph::Signature AutoGraph::signature(const CommandGroup& group) {
  Signature s;
  s.kernel = &group.kernel->info();
  s.range = group.range;
  std::uint64_t hash = reinterpret_cast<std::uintptr_t>(s.kernel);
  for (std::size_t d = 0; d < 3; ++d)
    hash = mix(mix(mix(hash, s.range.global[d]), s.range.local[d]), s.range.offset[d]);
  for (const plexus::Requirement& wanted : group.requirements) {
    s.requirements.push_back({wanted.storage.get(), wanted.range, wanted.mode});
    hash = mix(mix(hash, reinterpret_cast<std::uintptr_t>(wanted.storage.get())),
               static_cast<std::uint64_t>(wanted.mode));
    for (std::size_t d = 0; d < 3; ++d)
      hash = mix(mix(hash, wanted.range.offset[d]), wanted.range.extent[d]);
  }
  for (const ArgumentSlot& slot : group.arguments) {
    std::size_t value = 0;
    switch (slot.kind) {
      case ArgumentSlot::Kind::accessor: value = slot.requirement; break;
      case ArgumentSlot::Kind::scalar: value = slot.value.size(); break;
      case ArgumentSlot::Kind::local: value = slot.local_bytes; break;
      case ArgumentSlot::Kind::pointer: value = reinterpret_cast<std::uintptr_t>(slot.pointer); break;
    }
    s.arguments.push_back({slot.kind, value});
    hash = mix(mix(hash, static_cast<std::uint64_t>(slot.kind)), value);
  }
  s.hash = hash;
  return s;
}

AutoGraph::AutoGraph(const AutoGraphOptions& settings) : settings_(settings) {
  settings_.repeats = std::max<std::size_t>(settings_.repeats, 2);
  settings_.max_period = std::max<std::size_t>(settings_.max_period, 1);
  settings_.batch = std::max<std::size_t>(settings_.batch, 1);
  recent_.resize(settings_.max_period + 1);
  matching_.assign(settings_.max_period + 1, 0);
}

void AutoGraph::reset() {
  seen_ = 0;
  std::fill(matching_.begin(), matching_.end(), 0);
  unit_ = 0;
  position_ = 0;
  unit_pattern_.clear();
}

AutoGraph::Step AutoGraph::next(const CommandGroup* group) {
  if (!group) {
    reset();
    return Step::submit;
  }
  Signature s = signature(*group);
  if (holding()) {
    if (s == unit_pattern_[position_]) {
      if (++position_ < unit_) return Step::hold;
      position_ = 0;
      ++units_;
      return Step::replay;
    }
    reset();  // the pattern ends here: this one starts the next search
  }
  const std::size_t ring = recent_.size();
  const std::size_t at = seen_ % ring;
  std::size_t found = 0;
  for (std::size_t period = 1; period <= settings_.max_period; ++period) {
    if (seen_ < period || recent_[(seen_ - period) % ring].hash != s.hash) {
      matching_[period] = 0;
      continue;
    }
    if (++matching_[period] >= (settings_.repeats - 1) * period && found == 0) found = period;
  }
  recent_[at] = std::move(s);
  ++seen_;
  if (found == 0) return Step::submit;
  // The last `found` signatures are the period, in order; the unit repeats it.
  const std::size_t times = (settings_.batch + found - 1) / found;
  unit_pattern_.clear();
  for (std::size_t t = 0; t < times; ++t)
    for (std::size_t i = found; i > 0; --i) unit_pattern_.push_back(recent_[(seen_ - i) % ring]);
  unit_ = unit_pattern_.size();
  position_ = 0;
  ++pattern_;
  return Step::submit;
}

}  // namespace plexus::detail
