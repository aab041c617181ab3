// The suites' main: doctest's, with a watchdog for hangs. A suite that hangs on a busy machine
// and is killed by CTest's timeout says nothing of where it hung; with CLATOMICS_TEST_WATCHDOG_S
// set (CTest sets it below each suite's timeout), a suite still running that many seconds after
// it started prints the test case it is in (or that none is) and every thread's stack (through
// gdb, where it is installed, given a minute), then aborts.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
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
  std::string test_case;  // empty between test cases
  bool finished = false;  // every test case has run: the process is exiting
};

// Never destroyed: the watchdog outlives main(), to see a hang at exit too (a driver's teardown).
Running& running() {
  static Running* r = new Running;
  return *r;
}

struct WatchdogListener : doctest::IReporter {
  explicit WatchdogListener(const doctest::ContextOptions&) {}
  void test_case_start(const doctest::TestCaseData& data) override {
    const std::lock_guard<std::mutex> lock(running().mutex);
    running().test_case = data.m_name;
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
  const std::string command = "command -v gdb >/dev/null && timeout 60 gdb -p " + std::to_string(getpid()) +
                              " -batch -nx -ex 'set pagination off' -ex 'thread apply all bt' 1>&2";
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "clatomics test watchdog: no stacks (gdb is not installed or could not attach)\n");
}

void watch(long limit_s, Clock::time_point started) {
  std::this_thread::sleep_until(started + std::chrono::seconds(limit_s));
  std::unique_lock<std::mutex> lock(running().mutex);
  const std::string where = running().finished        ? "after its last test case (at exit)"
                            : running().test_case.empty() ? "between test cases"
                                                          : "in test case \"" + running().test_case + "\"";
  lock.unlock();
  std::fprintf(stderr, "\nclatomics test watchdog: the suite has run for %ld s, %s; every thread's stack:\n", limit_s, where.c_str());
  std::fflush(stderr);
  print_stacks();
  std::fprintf(stderr, "clatomics test watchdog: hung %s (over %ld s); aborting\n", where.c_str(), limit_s);
  std::fflush(stderr);
  std::abort();
}

// CLATOMICS_TEST_WATCHDOG_S: a whole number of seconds; anything else is said and ignored.
long watchdog_seconds() {
  const char* text = std::getenv("CLATOMICS_TEST_WATCHDOG_S");
  if (!text || !*text) return 0;
  char* end = nullptr;
  const long seconds = std::strtol(text, &end, 10);
  if (*end || seconds <= 0) {
    std::fprintf(stderr, "clatomics test watchdog: CLATOMICS_TEST_WATCHDOG_S='%s' is not a positive whole number of seconds: off\n", text);
    return 0;
  }
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const Clock::time_point started = Clock::now();
  doctest::Context context(argc, argv);
  if (const long limit = watchdog_seconds()) std::thread(watch, limit, started).detach();  // ends with the process
  const int result = context.run();
  {
    const std::lock_guard<std::mutex> lock(running().mutex);
    running().finished = true;
  }
  return result;
}
