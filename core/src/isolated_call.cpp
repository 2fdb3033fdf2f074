#include "plexus/isolated_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "plexus/error.hpp"

namespace plexus {

namespace {

constexpr std::size_t max_captured_output = 64 * 1024;

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

// exit() called by the library inside the step: end with its status, running none of the
// caller's atexit handlers or static destructors (registered last, so this one runs first).
void exit_now(int status, void*) {
  std::fflush(stdout);
  _exit(status);
}

[[noreturn]] void run_child(const std::function<bool(std::string&, std::string&)>& step,
                            int result_fd, int output_fd) {
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(output_fd, 1);
  ::dup2(output_fd, 2);
  for (const int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE})
    ::signal(signal, SIG_DFL);
  sigset_t all;
  sigemptyset(&all);
  ::sigprocmask(SIG_SETMASK, &all, nullptr);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  ::on_exit(exit_now, nullptr);
  std::string output, message;
  bool succeeded = false;
  try {
    succeeded = step(output, message);
  } catch (const std::exception& failure) {
    message = failure.what();
  } catch (...) {
    message = "it threw an exception that is not a std::exception";
  }
  const std::string& payload = succeeded ? output : message;
  write_all(result_fd, succeeded ? "1" : "0", 1);
  write_all(result_fd, payload.data(), payload.size());
  std::fflush(stdout);
  _exit(0);
}

// The library's message: the captured output up to LLVM's crash report boilerplate.
std::string message_of(const std::string& output) {
  std::string text = output;
  for (const char* boilerplate : {"PLEASE submit a bug report", "Stack dump:"}) {
    if (const std::size_t at = text.find(boilerplate); at != std::string::npos) text.resize(at);
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > 2000) text = text.substr(0, 2000) + " ...";
  return text;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = ::strsignal(signal);
    return "it was ended by signal " + std::to_string(signal) + " (" +
           (name ? name : "unknown") + ")";
  }
  if (WIFEXITED(status)) return "it called exit(" + std::to_string(WEXITSTATUS(status)) + ")";
  return "it ended abnormally";
}

}  // namespace

IsolatedResult run_isolated(const std::function<bool(std::string&, std::string&)>& step,
                            std::chrono::seconds timeout) {
  int result_pipe[2], output_pipe[2];
  if (::pipe2(result_pipe, O_CLOEXEC) != 0) {
    throw error(error_category::internal,
                std::string("run_isolated: cannot create a pipe: ") + std::strerror(errno));
  }
  if (::pipe2(output_pipe, O_CLOEXEC) != 0) {
    const int saved = errno;
    ::close(result_pipe[0]);
    ::close(result_pipe[1]);
    throw error(error_category::internal,
                std::string("run_isolated: cannot create a pipe: ") + std::strerror(saved));
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(result_pipe[0]);
    ::close(output_pipe[0]);
    run_child(step, result_pipe[1], output_pipe[1]);
  }
  const int fork_errno = errno;
  ::close(result_pipe[1]);
  ::close(output_pipe[1]);
  if (child < 0) {
    ::close(result_pipe[0]);
    ::close(output_pipe[0]);
    throw error(error_category::internal,
                std::string("run_isolated: cannot fork: ") + std::strerror(fork_errno));
  }

  std::string result, output;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  pollfd fds[2] = {{result_pipe[0], POLLIN, 0}, {output_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[65536];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      std::string& into = i == 0 ? result : output;
      if (i == 0 || output.size() < max_captured_output) into.append(buffer, got);
    }
  }
  if (timed_out) ::kill(child, SIGKILL);
  for (const pollfd& fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  IsolatedResult answer;
  const std::string said = message_of(output);
  if (timed_out) {
    answer.failure = "it did not finish within " + std::to_string(timeout.count()) +
                     " s and was stopped";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !result.empty()) {
    answer.succeeded = result[0] == '1';
    if (answer.succeeded) {
      answer.output = result.substr(1);
      return answer;
    }
    answer.failure = result.substr(1);
    if (!said.empty()) answer.failure += " (" + said + ")";
    return answer;
  } else {
    answer.failure = describe_status(status);
  }
  if (!said.empty()) answer.failure += ": " + said;
  return answer;
}

}  // namespace plexus
