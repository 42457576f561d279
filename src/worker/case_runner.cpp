#include "worker/case_runner.hpp"

#include <exception>

#include <fmt/format.h>

#include "backends/backend.hpp"
#include "collectives/spec.hpp"
#include "reports/stats.hpp"
#include "worker/timing_loop.hpp"

namespace pico {
namespace {

// True on every rank when every rank succeeded; the first failing rank's message otherwise.
bool all_ranks_ok(MPI_Comm harness, const std::string& local_error, std::string& error_out) {
  int local_failed = local_error.empty() ? 0 : 1;
  int failed = 0;
  MPI_Allreduce(&local_failed, &failed, 1, MPI_INT, MPI_MAX, harness);
  if (failed == 0) return true;
  // The lowest failing rank's message travels to everyone.
  int rank = 0;
  MPI_Comm_rank(harness, &rank);
  int reporter = local_failed ? rank : INT32_MAX;
  int first = 0;
  MPI_Allreduce(&reporter, &first, 1, MPI_INT, MPI_MIN, harness);
  int length = rank == first ? static_cast<int>(local_error.size()) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, harness);
  error_out = rank == first ? local_error : std::string(static_cast<std::size_t>(length), ' ');
  MPI_Bcast(error_out.data(), length, MPI_CHAR, first, harness);
  error_out = fmt::format("rank {}: {}", first, error_out);
  return false;
}

nlohmann::json base_result(const Case& c, const CaseContext& ctx) {
  nlohmann::json r = case_to_json(c);
  r["library"] = ctx.library;
  r["status"] = "ok";
  r["reason"] = "";
  r["iterations"] = 0;
  r["warmup"] = ctx.timing.warmup;
  r["stop_reason"] = "";
  r["timing"] = nullptr;
  r["algbw_GBps"] = nullptr;
  r["busbw_GBps"] = nullptr;
  r["validation"] = {{"status", "skipped"}, {"mismatches", 0}};
  r["launch"] = ctx.launch;
  return r;
}

}  // namespace

nlohmann::json run_case(const Case& c, const CaseContext& ctx) {
  const double case_start = MPI_Wtime();
  nlohmann::json r = base_result(c, ctx);
  auto finish = [&]() -> nlohmann::json {
    r["elapsed_s"] = MPI_Wtime() - case_start;
    return r;
  };

  std::unique_ptr<Backend> backend;
  std::string local_error;
  try {
    backend = make_backend(c);
    backend->prepare(c, ctx.measured);
  } catch (const std::exception& e) {
    local_error = e.what();
  }
  std::string error;
  if (!all_ranks_ok(ctx.harness, local_error, error)) {
    r["status"] = "failed";
    r["reason"] = "prepare: " + error;
    return finish();
  }

  const TimedSamples timed = run_timed(*backend, ctx.timing, ctx.harness);
  const TimingStats stats = compute_stats(timed.samples_s);
  r["iterations"] = stats.iterations;
  r["stop_reason"] = timed.stop_reason;
  r["timing"] = stats_to_json(stats);
  r["algbw_GBps"] = algbw_GBps(c, stats.median_s);
  r["busbw_GBps"] = busbw_GBps(c, stats.median_s);
  if (ctx.timing.keep_samples) r["samples_s"] = timed.samples_s;

  if (ctx.validation && has_payload(c.collective)) {
    MPI_Barrier(ctx.harness);
    unsigned long long local = backend->validate();
    unsigned long long total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, ctx.harness);
    r["validation"] = {{"status", total == 0 ? "passed" : "failed"}, {"mismatches", total}};
    if (total != 0) {
      r["status"] = "failed";
      r["reason"] = fmt::format("validation: {} mismatching element{}", total, total == 1 ? "" : "s");
    }
  }
  backend->release();
  return finish();
}

}  // namespace pico
