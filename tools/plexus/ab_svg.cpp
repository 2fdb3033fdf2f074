#include "ab_svg.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <thread>

#include <sys/utsname.h>

#include "ab_stats.hpp"
#include "plexus/error.hpp"

namespace plexus::tool {
namespace {

struct Bar {
  std::string name;
  bool copy = false;
  double start_us = 0, end_us = 0;
  double ready_us = -1;   // tasks: when their last dependency ended
  bool critical = false;  // on the critical path
};

using RowKey = std::pair<int, int>;  // (pid, tid): a device's queue

struct Gantt {
  std::map<RowKey, std::vector<Bar>> rows;
  std::map<int, std::string> devices;  // pid -> name
  double makespan_us = 0;
  double waited_ready_us = 0;  // the sum over tasks of start - ready
  double waited_queue_us = 0;  // of which their queue was still running an earlier task
  std::size_t waited_tasks = 0;
  // The critical path, last task first: from the task that ended last, each time the
  // dependency that ended last (the one it waited for), as (row, bar index).
  std::vector<std::pair<RowKey, std::size_t>> critical;
  double critical_work_us = 0;  // the sum of its tasks' durations
};

struct TaskRef {
  RowKey row;
  std::size_t bar = 0;
  double end_us = 0, submit_us = 0;
  std::vector<long long> dependencies;
};

// Follows back from the task that ended last, each time to what it waited for last: the
// dependency that ended last, or the task before it on its queue when that ended later (a
// queue runs one task at a time); for a task with neither, the last to end before the
// program submitted it (an in-order scheduler runs tasks as they come: the program waits).
void find_critical_path(Gantt& gantt, const std::map<long long, TaskRef>& tasks) {
  std::map<RowKey, std::vector<const TaskRef*>> by_row;
  for (const auto& [id, task] : tasks) by_row[task.row].push_back(&task);
  const TaskRef* at = nullptr;
  for (const auto& [id, task] : tasks)
    if (!at || task.end_us > at->end_us) at = &task;
  for (std::size_t guard = 0; at && guard <= tasks.size(); ++guard) {
    Bar& bar = gantt.rows[at->row][at->bar];
    bar.critical = true;
    gantt.critical.push_back({at->row, at->bar});
    gantt.critical_work_us += bar.end_us - bar.start_us;
    const TaskRef* previous = nullptr;
    auto consider = [&](const TaskRef* candidate) {
      if (candidate != at && candidate->end_us <= bar.start_us + 0.01 &&
          (!previous || candidate->end_us > previous->end_us))
        previous = candidate;
    };
    for (long long dependency : at->dependencies) {
      const auto found = tasks.find(dependency);
      if (found != tasks.end()) consider(&found->second);
    }
    for (const TaskRef* on_queue : by_row[at->row]) consider(on_queue);
    if (!previous) {  // submitted after everything it needed: what ended before its submission
      for (const auto& [id, task] : tasks)
        if (task.end_us <= at->submit_us + 0.01) consider(&task);
    }
    at = previous;
  }
}

Gantt read_gantt(const std::string& trace) {
  std::ifstream in(trace);
  if (!in) throw error(error_category::io, "cannot read the trace '" + trace + "'");
  std::stringstream text;
  text << in.rdbuf();
  Gantt gantt;
  std::map<long long, TaskRef> tasks;
  try {
    const auto root = boost::json::parse(text.str()).as_object();
    for (const auto& value : root.at("traceEvents").as_array()) {
      const auto& event = value.as_object();
      const std::string phase(event.at("ph").as_string());
      const int pid = static_cast<int>(event.at("pid").to_number<double>());
      if (phase == "M" && event.at("name").as_string() == "process_name") {
        gantt.devices[pid] = std::string(event.at("args").as_object().at("name").as_string());
        continue;
      }
      if (phase != "X") continue;
      const std::string category(event.at("cat").as_string());
      // Tasks and their copies only: the task bar shows its kernel (launch), and the
      // runtime's own work (compiles, module loads, allocations) and waits have no row.
      if (category != "task" && category != "copy") continue;
      const double ts = event.at("ts").to_number<double>(),
                   dur = event.at("dur").to_number<double>();
      const int tid = static_cast<int>(event.at("tid").to_number<double>());
      auto& bars = gantt.rows[{pid, tid}];
      bars.push_back({std::string(event.at("name").as_string()), category == "copy", ts, ts + dur});
      gantt.makespan_us = std::max(gantt.makespan_us, ts + dur);
      const auto* args = event.if_contains("args");
      if (category != "task" || !args || !args->is_object()) continue;
      const auto& task = args->as_object();
      if (const auto* ready = task.if_contains("ready_us")) {
        bars.back().ready_us = ready->to_number<double>();
        const double waited = ts - bars.back().ready_us;
        if (waited > 0) {
          gantt.waited_ready_us += waited;
          ++gantt.waited_tasks;
        }
      }
      if (const auto* queue_busy = task.if_contains("wait_queue_busy_us"))
        gantt.waited_queue_us += queue_busy->to_number<double>();
      if (const auto* id = task.if_contains("id")) {
        TaskRef ref{{pid, tid}, bars.size() - 1, ts + dur, ts, {}};
        if (const auto* submit = task.if_contains("submit_us")) ref.submit_us = submit->to_number<double>();
        if (const auto* dependencies = task.if_contains("dependencies")) {
          for (const auto& dependency : dependencies->as_array())
            ref.dependencies.push_back(static_cast<long long>(dependency.to_number<double>()));
        }
        tasks[static_cast<long long>(id->to_number<double>())] = std::move(ref);
      }
    }
  } catch (const std::exception& failure) {
    throw error(error_category::io, "the trace '" + trace + "' is not valid: " + failure.what());
  }
  find_critical_path(gantt, tasks);
  return gantt;
}

// Rows worth a track: those that ran anything but host accesses (a kernel, a copy, a host
// task), however short. The others (a host queue that only handed the result to the
// program) are named in a note instead, with how many of their tasks are on the critical
// path. Not by a share of the makespan, which a loaded machine stretches both ways: a slow
// hand-over got a track (CI), and slow starts hid the queue that ran every kernel (0.2 ms of
// kernels in a 382 ms makespan of dag's under load: a panel without a track).
std::vector<RowKey> shown_rows(const Gantt& gantt, std::string& hidden) {
  std::vector<RowKey> shown;
  for (const auto& [where, bars] : gantt.rows) {
    bool worked = false;
    std::size_t critical = 0;
    for (const auto& bar : bars) {
      worked = worked || bar.copy || bar.name != "host access";
      critical += bar.critical;
    }
    if (worked) {
      shown.push_back(where);
      continue;
    }
    const auto device = gantt.devices.find(where.first);
    hidden += (hidden.empty() ? "" : ", ") +
              (device == gantt.devices.end() ? std::string("?") : device->second) + " q" +
              std::to_string(where.second) + " (" + std::to_string(bars.size()) + " tasks" +
              (critical ? ", " + std::to_string(critical) + " on the critical path" : "") + ")";
  }
  return shown;
}

const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948",
                         "#76b7b2", "#ff9da7", "#9c755f", "#e15759", "#bab0ac"};

std::string colour(const std::string& name) {
  return palette[std::hash<std::string>{}(name) % (sizeof palette / sizeof *palette)];
}

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string num3(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

// A "nice" tick step for an axis of `span` units with about `ticks` ticks.
double tick_step(double span, int ticks) {
  const double raw = span / ticks;
  double step = 1;
  while (step * 10 <= raw) step *= 10;
  while (step > raw && step > 1e-6) step /= 10;
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (step * factor >= raw) return step * factor;
  }
  return step * 10;
}

const RunResult& representative(const AbConfig& config) {
  std::vector<double> makespans;
  for (const auto& run : config.runs) makespans.push_back(run.makespan_us);
  const double median = spread_of(makespans).median;
  return *std::min_element(
      config.runs.begin(), config.runs.end(), [&](const RunResult& a, const RunResult& b) {
        return std::abs(a.makespan_us - median) < std::abs(b.makespan_us - median);
      });
}

// A config's name without its directories ("dag.toml", "dag.toml + scheduler=heft").
std::string short_name(const std::string& name) {
  const auto plus = name.find(" + ");
  const std::string file = name.substr(0, plus);
  const auto slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) +
         (plus == std::string::npos ? "" : name.substr(plus));
}

constexpr double panel_width = 460, label_width = 120, row_height = 22, margin = 20;
constexpr double line_height = 14;  // of a line of text at font-size 11
constexpr double char_width = 6.2;  // the widest average of an 11 px sans-serif line

// `text` in lines of at most `width` pixels (at char_width), broken at spaces.
std::vector<std::string> wrapped(const std::string& text, double width) {
  const auto most = static_cast<std::size_t>(width / char_width);
  std::vector<std::string> lines;
  std::string line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > most) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// Lines of text from (x, y) down, line_height apart; `attributes` go on each.
void text_lines(std::ostringstream& svg, double x, double y, const std::vector<std::string>& lines,
                const std::string& attributes = "") {
  for (std::size_t i = 0; i < lines.size(); ++i)
    svg << "<text x=\"" << num(x) << "\" y=\"" << num(y + i * line_height) << "\"" << attributes
        << ">" << escaped(lines[i]) << "</text>\n";
}

// The box plot's and panels' name for a config: its label and file (with its --set), the
// whole path when two configs share a file name.
std::string display_name(const std::vector<AbConfig>& configs, std::size_t c) {
  const std::string name = short_name(configs[c].name);
  for (std::size_t other = 0; other < configs.size(); ++other) {
    if (other != c && short_name(configs[other].name) == name)
      return configs[c].label + ": " + configs[c].name;
  }
  return configs[c].label + ": " + name;
}

}  // namespace

std::string machine_description() {
  std::string cpu;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; cpu.empty() && std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      cpu = line.substr(line.find(':') + 2);
  }
  utsname system{};
  std::string host = uname(&system) == 0 ? std::string(system.nodename) + ", " +
                                                system.sysname + " " + system.release
                                          : std::string("?");
  return (cpu.empty() ? std::string("unknown CPU") : cpu) + " (" +
         std::to_string(std::thread::hardware_concurrency()) + " hardware threads), " + host;
}

void write_svg(const std::string& path, const std::vector<AbConfig>& configs,
               const SvgContext& context) {
  std::vector<Gantt> gantts;
  std::vector<std::vector<RowKey>> rows;
  std::vector<std::string> hidden(configs.size());
  double span_us = 0;
  for (std::size_t c = 0; c < configs.size(); ++c) {
    gantts.push_back(read_gantt(representative(configs[c]).trace));
    rows.push_back(shown_rows(gantts.back(), hidden[c]));
    span_us = std::max(span_us, gantts.back().makespan_us);
  }
  span_us = std::max(span_us, 1.0);
  const double span_ms = span_us / 1000;
  // Panels two to a row; each row of panels: its lines of title (wrapped to the panel's
  // width), as many tracks as its fullest panel has, the axis and a note.
  const std::size_t columns = std::min<std::size_t>(configs.size(), 2);
  const std::size_t panel_rows = (configs.size() + columns - 1) / columns;
  const double width = margin * 2 + columns * (label_width + panel_width + margin);
  std::vector<std::vector<std::string>> titles(configs.size());  // line 0 is bold
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const Gantt& gantt = gantts[c];
    std::string verdict = "the baseline (" + configs[0].label + ")";
    if (c > 0) {
      const Comparison comparison = compare(makespans_ms(configs[0]), makespans_ms(configs[c]));
      verdict = configs[c].label + "/" + configs[0].label + " = " + num3(comparison.ratio.median) +
                " [" + num3(comparison.ratio.min) + "-" + num3(comparison.ratio.max) + "]: " +
                (comparison.differs ? configs[c].label + " is " : std::string()) +
                comparison.verdict;
    }
    std::vector<std::string>& lines = titles[c];
    lines.push_back(display_name(configs, c) + " (" + representative(configs[c]).scheduler + ", " +
                    num(gantt.makespan_us / 1000) + " ms)");
    for (const std::string& text :
         {"makespan: " + verdict,
          "waited while ready: " + num(gantt.waited_ready_us / 1000) + " ms over " +
              std::to_string(gantt.waited_tasks) + " tasks (queue busy " +
              num(gantt.waited_queue_us / 1000) + " ms, the rest the scheduler's)",
          "critical path: " + std::to_string(gantt.critical.size()) + " tasks, " +
              num(gantt.critical_work_us / 1000) + " ms of work"}) {
      for (auto& line : wrapped(text, label_width + panel_width)) lines.push_back(line);
    }
  }
  std::vector<double> row_top(panel_rows + 1), title_height(panel_rows), gantt_height(panel_rows);
  const std::vector<std::string> key = wrapped(
      "red line: a task ready (its dependencies done) but not started yet; black outline and "
      "dashed links: the critical path (from the last task back through what each waited for "
      "last: a dependency, the task before it on its queue, or its submission)",
      width - 2 * margin);
  row_top[0] = margin + 52 + key.size() * line_height;
  for (std::size_t r = 0; r < panel_rows; ++r) {
    std::size_t lines = 1, tracks = 1;
    for (std::size_t c = r * columns; c < std::min(configs.size(), (r + 1) * columns); ++c) {
      lines = std::max(lines, titles[c].size());
      tracks = std::max(tracks, rows[c].size());
    }
    title_height[r] = lines * line_height + 4;
    gantt_height[r] = tracks * row_height;
    row_top[r + 1] = row_top[r] + title_height[r] + gantt_height[r] + 75;
  }
  const double panels_bottom = row_top[panel_rows] - 75;  // the last tracks' bottom
  const double box_top = panels_bottom + 105, box_height = 200;
  const double height = box_top + box_height + 60;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << margin << "\" y=\"" << margin + 4
      << "\" font-size=\"14\" font-weight=\"bold\">plexus ab: one representative run (median "
         "makespan) per config, same time scale</text>\n"
      << "<text x=\"" << margin << "\" y=\"" << margin + 22 << "\">program: "
      << escaped(context.program) << "</text>\n"
      << "<text x=\"" << margin << "\" y=\"" << margin + 38 << "\">"
      << context.runs << " measured runs per config (+" << context.warmup
      << " warm-up), configs alternating; machine: " << escaped(context.machine) << "</text>\n";
  text_lines(svg, margin, margin + 54, key, " fill=\"#555555\"");
  const double step = tick_step(span_ms, 5);
  for (std::size_t c = 0; c < configs.size(); ++c) {
    const Gantt& gantt = gantts[c];
    const std::size_t r = c / columns;
    const double left = margin + (c % columns) * (label_width + panel_width + margin) + label_width;
    const double gantt_top = row_top[r] + title_height[r];
    auto x_of = [&](double us) { return left + us / span_us * panel_width; };
    text_lines(svg, left - label_width, row_top[r] + 10, {titles[c].front()},
               " font-weight=\"bold\"");
    text_lines(svg, left - label_width, row_top[r] + 10 + line_height,
               {titles[c].begin() + 1, titles[c].end()});
    std::map<RowKey, double> row_y;
    for (std::size_t row = 0; row < rows[c].size(); ++row)
      row_y[rows[c][row]] = gantt_top + row * row_height;
    for (const RowKey& where : rows[c]) {
      const auto& bars = gantt.rows.at(where);
      const double y = row_y[where];
      auto device = gantt.devices.find(where.first);
      std::string name = device == gantt.devices.end() ? "?" : device->second;
      if (name.size() > 14) name = name.substr(0, 13) + "…";
      svg << "<text x=\"" << num(left - 4) << "\" y=\"" << num(y + 15) << "\" text-anchor=\"end\">"
          << escaped(name) << " q" << where.second << "</text>\n"
          << "<rect x=\"" << num(left) << "\" y=\"" << num(y + 2) << "\" width=\""
          << num(panel_width) << "\" height=\"" << num(row_height - 4) << "\" fill=\"#f4f4f4\"/>\n";
      for (const auto& bar : bars) {
        if (bar.ready_us >= 0 && bar.start_us > bar.ready_us) {
          const double rx = x_of(bar.ready_us);
          svg << "<rect x=\"" << num(rx) << "\" y=\"" << num(y + row_height / 2 - 1)
              << "\" width=\"" << num(std::max(0.5, x_of(bar.start_us) - rx))
              << "\" height=\"2\" fill=\"#e15759\"><title>" << escaped(bar.name)
              << " waited ready " << num(bar.start_us - bar.ready_us) << " us</title></rect>\n";
        }
        const double x = x_of(bar.start_us), w = std::max(0.5, x_of(bar.end_us) - x);
        const double inset = bar.copy ? 8 : 3;
        svg << "<rect x=\"" << num(x) << "\" y=\"" << num(y + inset) << "\" width=\"" << num(w)
            << "\" height=\"" << num(row_height - 2 * inset) << "\" fill=\""
            << (bar.copy ? "#222222" : colour(bar.name)) << "\" stroke=\""
            << (bar.critical ? "black\" stroke-width=\"1.2\"" : "white\" stroke-width=\"0.3\"")
            << "><title>" << escaped(bar.name) << ": " << num(bar.start_us / 1000) << "-"
            << num(bar.end_us / 1000) << " ms" << (bar.critical ? " (critical path)" : "")
            << "</title></rect>\n";
      }
    }
    // The critical path's links: from each dependency's end to its dependent's start.
    for (std::size_t i = 0; i + 1 < gantt.critical.size(); ++i) {
      const auto& [later_row, later_bar] = gantt.critical[i];
      const auto& [earlier_row, earlier_bar] = gantt.critical[i + 1];
      const auto later_y = row_y.find(later_row), earlier_y = row_y.find(earlier_row);
      if (later_y == row_y.end() || earlier_y == row_y.end()) continue;  // an idle row
      const Bar& later = gantt.rows.at(later_row)[later_bar];
      const Bar& earlier = gantt.rows.at(earlier_row)[earlier_bar];
      svg << "<line x1=\"" << num(x_of(earlier.end_us)) << "\" y1=\""
          << num(earlier_y->second + row_height / 2) << "\" x2=\"" << num(x_of(later.start_us))
          << "\" y2=\"" << num(later_y->second + row_height / 2)
          << "\" stroke=\"black\" stroke-width=\"0.8\" stroke-dasharray=\"2,2\"/>\n";
    }
    const double axis = gantt_top + gantt_height[r] + 6;
    svg << "<line x1=\"" << num(left) << "\" y1=\"" << num(axis) << "\" x2=\""
        << num(left + panel_width) << "\" y2=\"" << num(axis) << "\" stroke=\"black\"/>\n";
    for (double t = 0; t <= span_ms + 1e-9; t += step) {
      const double x = x_of(t * 1000);
      svg << "<line x1=\"" << num(x) << "\" y1=\"" << num(axis) << "\" x2=\"" << num(x)
          << "\" y2=\"" << num(axis + 4) << "\" stroke=\"black\"/><text x=\"" << num(x) << "\" y=\""
          << num(axis + 16) << "\" text-anchor=\"middle\">" << num(t) << "</text>\n";
    }
    svg << "<text x=\"" << num(left + panel_width) << "\" y=\"" << num(axis + 30)
        << "\" text-anchor=\"end\">time since first submission (ms)</text>\n";
    if (!hidden[c].empty()) {
      svg << "<text x=\"" << num(left - label_width) << "\" y=\"" << num(axis + 30)
          << "\" fill=\"#555555\">" << escaped("not drawn (idle): " + hidden[c]) << "</text>\n";
    }
  }
  // Kernel legend: the names seen, with their colours; copies dark.
  std::map<std::string, std::string> legend;
  for (const auto& gantt : gantts) {
    for (const auto& [where, bars] : gantt.rows) {
      for (const auto& bar : bars)
        legend[bar.copy ? "copy" : bar.name] = bar.copy ? "#222222" : colour(bar.name);
    }
  }
  double legend_x = margin;
  const double legend_y = panels_bottom + 58;
  for (const auto& [name, fill] : legend) {
    svg << "<rect x=\"" << num(legend_x) << "\" y=\"" << num(legend_y - 9)
        << "\" width=\"10\" height=\"10\" fill=\"" << fill << "\"/><text x=\"" << num(legend_x + 14)
        << "\" y=\"" << num(legend_y) << "\">" << escaped(name) << "</text>\n";
    legend_x += 30 + 7 * name.size();
  }

  // Box plot of makespans (ms), one box per config, shared axis starting at 0.
  double top_ms = 0;
  for (const auto& config : configs) {
    for (const auto& run : config.runs) top_ms = std::max(top_ms, run.makespan_us / 1000);
  }
  top_ms = std::max(top_ms * 1.1, 1e-3);
  const double plot_left = margin + 60,
               plot_width = std::min(width - plot_left - margin, 140.0 * configs.size() + 40);
  auto y_of = [&](double ms) { return box_top + box_height - ms / top_ms * box_height; };
  svg << "<text x=\"" << margin << "\" y=\"" << num(box_top - 12)
      << "\" font-size=\"13\" font-weight=\"bold\">makespan per run (ms): box = quartiles, "
         "line = median, whiskers = min-max, dots = runs</text>\n"
      << "<line x1=\"" << num(plot_left) << "\" y1=\"" << num(box_top) << "\" x2=\""
      << num(plot_left) << "\" y2=\"" << num(box_top + box_height) << "\" stroke=\"black\"/>\n";
  const double ystep = tick_step(top_ms, 5);
  for (double t = 0; t <= top_ms + 1e-9; t += ystep) {
    svg << "<line x1=\"" << num(plot_left - 4) << "\" y1=\"" << num(y_of(t)) << "\" x2=\""
        << num(plot_left + plot_width) << "\" y2=\"" << num(y_of(t))
        << "\" stroke=\"#dddddd\"/><text x=\"" << num(plot_left - 6) << "\" y=\""
        << num(y_of(t) + 4) << "\" text-anchor=\"end\">" << num(t) << "</text>\n";
  }
  for (std::size_t c = 0; c < configs.size(); ++c) {
    std::vector<double> ms;
    for (const auto& run : configs[c].runs) ms.push_back(run.makespan_us / 1000);
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const Spread s = spread_of(ms);
    const double q1 = spread_of({ms.begin(), ms.begin() + (n + 1) / 2}).median;
    const double q3 = spread_of({ms.begin() + n / 2, ms.end()}).median;
    const double cx = plot_left + 40 + c * 140 + 40;
    const std::string fill = palette[c % (sizeof palette / sizeof *palette)];
    svg << "<line x1=\"" << num(cx) << "\" y1=\"" << num(y_of(s.min)) << "\" x2=\"" << num(cx)
        << "\" y2=\"" << num(y_of(s.max)) << "\" stroke=\"black\"/>\n"
        << "<rect x=\"" << num(cx - 30) << "\" y=\"" << num(y_of(q3)) << "\" width=\"60\" height=\""
        << num(std::max(1.0, y_of(q1) - y_of(q3))) << "\" fill=\"" << fill
        << "\" fill-opacity=\"0.5\" stroke=\"black\"/>\n"
        << "<line x1=\"" << num(cx - 30) << "\" y1=\"" << num(y_of(s.median)) << "\" x2=\""
        << num(cx + 30) << "\" y2=\"" << num(y_of(s.median))
        << "\" stroke=\"black\" stroke-width=\"2\"/>\n";
    for (double value : {s.min, s.max}) {
      svg << "<line x1=\"" << num(cx - 12) << "\" y1=\"" << num(y_of(value)) << "\" x2=\""
          << num(cx + 12) << "\" y2=\"" << num(y_of(value)) << "\" stroke=\"black\"/>\n";
    }
    for (std::size_t i = 0; i < n; ++i) {
      svg << "<circle cx=\"" << num(cx + 38) << "\" cy=\"" << num(y_of(ms[i]))
          << "\" r=\"2.5\" fill=\"black\"/>\n";
    }
    svg << "<text x=\"" << num(cx) << "\" y=\"" << num(box_top + box_height + 16)
        << "\" text-anchor=\"middle\">" << escaped(display_name(configs, c)) << "</text>\n"
        << "<text x=\"" << num(cx) << "\" y=\"" << num(box_top + box_height + 30)
        << "\" text-anchor=\"middle\">" << escaped(configs[c].runs.front().scheduler)
        << "</text>\n";
  }
  svg << "</svg>\n";
  std::ofstream out(path, std::ios::trunc);
  out << svg.str();
  out.close();
  if (!out) throw error(error_category::io, "cannot write the SVG '" + path + "'");
}

}  // namespace plexus::tool
