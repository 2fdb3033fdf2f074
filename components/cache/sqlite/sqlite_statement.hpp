// Thin RAII wrappers over the SQLite C API for cache/sqlite: a prepared statement, an
// immediate transaction (rolled back unless committed) and exec(). Errors throw
// plexus::error(io) with SQLite's message; last_failure_code() gives the result code of the
// last such error on this thread (0 after reset_failure_code()).
// Not thread-safe: used under the store's mutex.
#pragma once

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace plexus::sqlite_cache {

[[noreturn]] void fail(sqlite3* db, int code, const std::string& what);
int last_failure_code();
void reset_failure_code();
void exec(sqlite3* db, const char* sql);

class Statement {
 public:
  Statement(sqlite3* db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::span<const std::byte> blob);
  Statement& bind(int index, std::span<const std::uint8_t> blob);
  Statement& bind_text(int index, const std::string& text);
  bool step();  // true: a row is ready; false: done
  std::int64_t integer(int column) const;
  std::vector<std::byte> blob(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

class Transaction {
 public:
  explicit Transaction(sqlite3* db);  // BEGIN IMMEDIATE (waits up to the busy timeout)
  ~Transaction();                     // ROLLBACK unless committed
  void commit();

 private:
  sqlite3* db_;
  bool done_ = false;
};

}  // namespace plexus::sqlite_cache
