#include "ab_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <thread>

#include "plexus/error.hpp"

namespace plexus::tool {
namespace {

std::string tail_of(const std::string& path, std::size_t lines) {
  std::ifstream in(path);
  std::deque<std::string> last;
  for (std::string line; std::getline(in, line);) {
    last.push_back(line);
    if (last.size() > lines) last.pop_front();
  }
  std::string text;
  for (const auto& line : last) text += "\n    | " + line;
  return text;
}

[[noreturn]] void child(const std::vector<std::string>& program, const std::string& config,
                        const std::vector<std::string>& unset, const std::string& trace,
                        const std::string& log) {
  const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out >= 0) {
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::close(out);
  }
  for (const auto& name : unset) ::unsetenv(name.c_str());
  ::setenv("PLEXUS_CONFIG", config.c_str(), 1);
  ::setenv("PLEXUS_TRACE", trace.c_str(), 1);
  std::vector<char*> argv;
  for (const auto& arg : program) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::fprintf(stderr, "cannot start '%s': %s\n", argv[0], std::strerror(errno));
  ::_exit(127);
}

// The child's status as words, or empty when it exited with 0.
std::string wait_for(pid_t pid, double timeout_s) {
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return std::string("waitpid failed: ") + std::strerror(errno);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timeout_s > 0 && elapsed > timeout_s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return "timed out after " + std::to_string(static_cast<long>(timeout_s)) +
             " s (killed; --timeout changes the limit)";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (code == 0) return {};
    return "exited with status " + std::to_string(code) +
           (code == 127 ? " (the program could not be started)" : "");
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "was killed by signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  return "ended with wait status " + std::to_string(status);
}

double number_at(const boost::json::object& object, const char* key) {
  const auto* value = object.if_contains(key);
  if (!value || !value->is_number()) {
    throw error(error_category::io, std::string("missing number '") + key + "'");
  }
  return value->to_number<double>();
}

}  // namespace

void read_summary(const std::string& path, RunResult& result) {
  std::ifstream in(path);
  if (!in) throw error(error_category::io, "no trace summary at '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  try {
    const boost::json::object summary = boost::json::parse(text.str()).as_object();
    result.scheduler = boost::json::value_to<std::string>(summary.at("scheduler"));
    result.makespan_us = number_at(summary, "makespan_us");
    result.tasks = static_cast<std::size_t>(number_at(summary, "tasks"));
    result.kernels = static_cast<std::size_t>(number_at(summary, "kernels"));
    result.copies = static_cast<std::size_t>(number_at(summary, "copies"));
    result.bytes_moved = static_cast<std::size_t>(number_at(summary, "bytes_moved"));
    for (const auto& entry : summary.at("devices").as_array()) {
      const auto& device = entry.as_object();
      DeviceUse& use = result.devices[boost::json::value_to<std::string>(device.at("name"))];
      use.busy_us = number_at(device, "busy_us");
      use.utilisation = number_at(device, "utilisation");
      use.tasks = static_cast<std::size_t>(number_at(device, "tasks"));
    }
  } catch (const error&) {
    throw;
  } catch (const std::exception& failure) {
    throw error(error_category::io,
                "the trace summary '" + path + "' is not valid: " + failure.what());
  }
}

RunResult run_once(const std::vector<std::string>& program, const std::string& config,
                   const std::vector<std::string>& unset, const std::string& trace,
                   double timeout_s, const std::string& who) {
  RunResult result;
  result.trace = trace;
  const std::string log = trace + ".log";
  const std::string summary = trace.ends_with(".json")
                                  ? trace.substr(0, trace.size() - 5) + ".summary.json"
                                  : trace + ".summary.json";
  std::remove(summary.c_str());
  std::fflush(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw error(error_category::io, std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) child(program, config, unset, trace, log);
  const std::string status = wait_for(pid, timeout_s);
  result.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!status.empty()) {
    throw error(error_category::invalid_argument,
                "the program failed under " + who + ": '" + program[0] + "' " + status +
                    "; its output (" + log + ") ends with:" + tail_of(log, 12));
  }
  try {
    read_summary(summary, result);
  } catch (const error& failure) {
    throw error(error_category::invalid_argument,
                "the run under " + who + " exited normally but " + failure.what() + "; is '" +
                    program[0] +
                    "' a Plexus application that destroys its plexus::Runtime before exiting?");
  }
  return result;
}

}  // namespace plexus::tool
