#include "ab_report.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "ab_stats.hpp"
#include "plexus/error.hpp"
#include "table_printer.hpp"

namespace plexus::tool {
namespace {

template <typename F>
std::vector<double> each(const AbConfig& config, F field) {
  std::vector<double> values;
  for (const auto& run : config.runs) values.push_back(static_cast<double>(field(run)));
  return values;
}

std::string fixed(double value, int digits = 2) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string spread_text(const Spread& s, int digits = 2) {
  return fixed(s.median, digits) + " [" + fixed(s.min, digits) + "-" + fixed(s.max, digits) + "]";
}

std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 3) {
    bytes /= 1024;
    ++unit;
  }
  return fixed(bytes, unit ? 1 : 0) + " " + units[unit];
}

std::ofstream open_output(const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw error(error_category::io, "cannot write '" + path + "'");
  return out;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::vector<double> makespans_ms(const AbConfig& config) {
  return each(config, [](const RunResult& run) { return run.makespan_us / 1000; });
}

void print_report(std::ostream& out, const std::vector<AbConfig>& configs) {
  TablePrinter table({"config", "scheduler", "makespan ms median [min-max]",
                      "wall ms median [min-max]", "tasks", "copies", "bytes moved"});
  for (const auto& config : configs) {
    const RunResult& first = config.runs.front();
    table.add(
        {config.label + " " + config.name, first.scheduler,
         spread_text(spread_of(makespans_ms(config))),
         spread_text(spread_of(each(config, [](const RunResult& r) { return r.wall_ms; })), 1),
         fixed(spread_of(each(config, [](const RunResult& r) { return r.tasks; })).median, 0),
         fixed(spread_of(each(config, [](const RunResult& r) { return r.copies; })).median, 0),
         bytes_text(
             spread_of(each(config, [](const RunResult& r) { return r.bytes_moved; })).median)});
  }
  table.print(out);

  out << "\nper-device utilisation (busy time / makespan, median over runs):\n";
  TablePrinter devices({"config", "device", "tasks", "busy ms", "utilisation"});
  for (const auto& config : configs) {
    std::set<std::string> names;
    for (const auto& run : config.runs) {
      for (const auto& [name, use] : run.devices) names.insert(name);
    }
    for (const auto& name : names) {
      auto of = [&](auto field) {
        return spread_of(each(config,
                              [&](const RunResult& run) -> double {
                                auto found = run.devices.find(name);
                                return found == run.devices.end() ? 0.0 : field(found->second);
                              }))
            .median;
      };
      devices.add({config.label, name,
                   fixed(of([](const DeviceUse& u) { return double(u.tasks); }), 0),
                   fixed(of([](const DeviceUse& u) { return u.busy_us / 1000; })),
                   fixed(of([](const DeviceUse& u) { return u.utilisation * 100; }), 1) + "%"});
    }
  }
  devices.print(out);

  if (configs.size() < 2) return;
  const AbConfig& base = configs.front();
  out << "\nmakespan ratio to " << base.label << " (" << base.name
      << "), per pair of alternating runs: median [min-max]\n";
  for (std::size_t i = 1; i < configs.size(); ++i) {
    const Comparison comparison = compare(makespans_ms(base), makespans_ms(configs[i]));
    out << "  " << configs[i].label << "/" << base.label << " = "
        << spread_text(comparison.ratio, 3) << ": "
        << (comparison.differs ? configs[i].label + " is " : std::string()) << comparison.verdict
        << '\n';
  }
}

void write_csv(const std::string& path, const std::vector<AbConfig>& configs) {
  std::ofstream out = open_output(path);
  out << "config,name,run,scheduler,makespan_us,wall_ms,tasks,kernels,copies,bytes_moved,trace\n";
  for (const auto& config : configs) {
    for (std::size_t i = 0; i < config.runs.size(); ++i) {
      const RunResult& run = config.runs[i];
      out << config.label << ',' << quoted(config.name) << ',' << i + 1 << ',' << run.scheduler
          << ',' << fixed(run.makespan_us, 3) << ',' << fixed(run.wall_ms, 3) << ',' << run.tasks
          << ',' << run.kernels << ',' << run.copies << ',' << run.bytes_moved << ','
          << quoted(run.trace) << '\n';
    }
  }
}

void write_json(const std::string& path, const std::vector<AbConfig>& configs) {
  std::ofstream out = open_output(path);
  out << "{\"configs\":[";
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const AbConfig& config = configs[c];
    const Spread makespan = spread_of(makespans_ms(config));
    out << (c ? "," : "") << "\n {\"label\":" << quoted(config.label)
        << ",\"name\":" << quoted(config.name) << ",\"config\":" << quoted(config.path)
        << ",\"makespan_ms\":{\"median\":" << fixed(makespan.median, 4)
        << ",\"min\":" << fixed(makespan.min, 4) << ",\"max\":" << fixed(makespan.max, 4) << "}";
    if (c > 0) {
      const Comparison comparison = compare(makespans_ms(configs[0]), makespans_ms(config));
      out << ",\"ratio_to_first\":{\"median\":" << fixed(comparison.ratio.median, 4)
          << ",\"min\":" << fixed(comparison.ratio.min, 4)
          << ",\"max\":" << fixed(comparison.ratio.max, 4)
          << ",\"verdict\":" << quoted(comparison.verdict) << "}";
    }
    out << ",\"runs\":[";
    for (std::size_t i = 0; i < config.runs.size(); ++i) {
      const RunResult& run = config.runs[i];
      out << (i ? "," : "") << "\n  {\"scheduler\":" << quoted(run.scheduler)
          << ",\"makespan_us\":" << fixed(run.makespan_us, 3)
          << ",\"wall_ms\":" << fixed(run.wall_ms, 3) << ",\"tasks\":" << run.tasks
          << ",\"kernels\":" << run.kernels << ",\"copies\":" << run.copies
          << ",\"bytes_moved\":" << run.bytes_moved << ",\"trace\":" << quoted(run.trace) << "}";
    }
    out << "]}";
  }
  out << "\n]}\n";
}

}  // namespace plexus::tool
