// The suites' main: doctest's, with a watchdog for hangs. A suite that hangs on a busy machine
// and is killed by CTest's timeout says nothing of where it hung; with CLATOMICS_TEST_WATCHDOG_S
// set (CTest sets it below each suite's timeout), a test case that runs longer than that many
// seconds prints its name and every thread's stack (through gdb, where it is installed), then
// aborts the suite.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  std::mutex mutex;
  std::condition_variable ended;
  std::string test_case;  // empty between test cases
  Clock::time_point since;
  bool done = false;
};

Running& running() {
  static Running r;
  return r;
}

struct WatchdogListener : doctest::IReporter {
  explicit WatchdogListener(const doctest::ContextOptions&) {}
  void test_case_start(const doctest::TestCaseData& data) override {
    const std::lock_guard<std::mutex> lock(running().mutex);
    running().test_case = data.m_name;
    running().since = Clock::now();
  }
  void test_case_end(const doctest::CurrentTestCaseStats&) override {
    const std::lock_guard<std::mutex> lock(running().mutex);
    running().test_case.clear();
  }
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("clatomics_watchdog", 1, WatchdogListener);

// Every thread's stack, from gdb attached to this process (the hang may be in a driver's thread).
void print_stacks() {
#ifdef __linux__
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);  // Yama lets only ancestors attach otherwise
#endif
  const std::string command = "command -v gdb >/dev/null && gdb -p " + std::to_string(getpid()) +
                              " -batch -nx -ex 'set pagination off' -ex 'thread apply all bt' 1>&2";
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "clatomics test watchdog: no stacks (gdb is not installed or could not attach)\n");
}

void watch(long limit_s) {
  std::unique_lock<std::mutex> lock(running().mutex);
  while (!running().ended.wait_for(lock, std::chrono::seconds(1), [] { return running().done; })) {
    if (running().test_case.empty()) continue;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - running().since).count();
    if (seconds < limit_s) continue;
    const std::string name = running().test_case;
    lock.unlock();
    std::fprintf(stderr, "\nclatomics test watchdog: test case \"%s\" has run for %ld s; every thread's stack:\n", name.c_str(), long(seconds));
    std::fflush(stderr);
    print_stacks();
    std::fprintf(stderr, "clatomics test watchdog: test case \"%s\" hung (over %ld s); aborting\n", name.c_str(), limit_s);
    std::fflush(stderr);
    std::abort();
  }
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  std::thread watchdog;
  const char* limit = std::getenv("CLATOMICS_TEST_WATCHDOG_S");
  if (limit && std::atol(limit) > 0) watchdog = std::thread(watch, std::atol(limit));
  const int result = context.run();
  if (watchdog.joinable()) {
    {
      const std::lock_guard<std::mutex> lock(running().mutex);
      running().done = true;
    }
    running().ended.notify_all();
    watchdog.join();
  }
  return result;
}
