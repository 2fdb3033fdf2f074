#include "sqlite_statement.hpp"

#include "plexus/error.hpp"

namespace plexus::sqlite_cache {

namespace {
thread_local int failure_code = 0;
}

int last_failure_code() { return failure_code; }
void reset_failure_code() { failure_code = 0; }

void fail(sqlite3* db, int code, const std::string& what) {
  failure_code = code;
  throw error(error_category::io, "cache/sqlite: " + what + ": " +
                                      (db ? sqlite3_errmsg(db) : sqlite3_errstr(code)) + " (SQLite code " +
                                      std::to_string(code) + ")");
}

void exec(sqlite3* db, const char* sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    failure_code = rc;
    std::string text = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    throw error(error_category::io, std::string("cache/sqlite: ") + sql + ": " + text + " (SQLite code " +
                                        std::to_string(rc) + ")");
  }
}

Statement::Statement(sqlite3* db, const char* sql) : db_(db) {
  const int rc = sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr);
  if (rc != SQLITE_OK) fail(db, rc, std::string("cannot prepare '") + sql + "'");
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
  return *this;
}

Statement& Statement::bind(int index, std::span<const std::byte> blob) {
  sqlite3_bind_blob64(statement_, index, blob.data(), blob.size(), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind(int index, std::span<const std::uint8_t> blob) {
  sqlite3_bind_blob64(statement_, index, blob.data(), blob.size(), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind_text(int index, const std::string& text) {
  sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, rc, std::string("cannot run '") + sqlite3_sql(statement_) + "'");
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

std::vector<std::byte> Statement::blob(int column) const {
  const auto* data = static_cast<const std::byte*>(sqlite3_column_blob(statement_, column));
  const int size = sqlite3_column_bytes(statement_, column);
  return data ? std::vector<std::byte>(data, data + size) : std::vector<std::byte>{};
}

Transaction::Transaction(sqlite3* db) : db_(db) { exec(db, "BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  exec(db_, "COMMIT");
  done_ = true;
}

}  // namespace plexus::sqlite_cache
