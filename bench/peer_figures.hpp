// Figures of other libraries measured in the same device job (bench/cub_yardsticks.cu's --json),
// added to a suite's rows as yardsticks: each row of the file is one library's figure for the
// suite's benchmark of the same op, type, form, distribution, bins and bytes.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "bench.hpp"

namespace clatomics::bench {

struct PeerFigure {
  std::string op, type, form, distribution;  // the suite's fields ("" where the file has null)
  std::size_t bins = 0, bytes = 0;
  std::string yardstick;  // whose figure: "CUB"
  double value = 0;       // in the suite's unit (GB/s)
};

// The rows of `suite` in a peer file's text: {"rows": [{"suite", "op", "type", "form",
// "distribution", "bins", "bytes", "yardstick", "value"}, ...]}, other fields and other suites'
// rows ignored. Throws std::runtime_error, naming `source`, where the text is not such JSON.
std::vector<PeerFigure> parse_peer_figures(const std::string& text, const std::string& suite, const std::string& source);

// The rows of `suite` in the file the environment variable `variable` names; none where it is
// unset or empty. Throws std::runtime_error where the file cannot be read or parsed.
std::vector<PeerFigure> read_peer_figures(const char* variable, const std::string& suite, const Config& config);

// rows with, after the last row of each benchmark, a row per peer figure of that benchmark (the
// benchmark's row with the peer as its yardstick). Notes through config's progress a benchmark
// whose peers were measured at other bytes only (a different --size).
std::vector<Row> with_peer_rows(const std::vector<Row>& rows, const std::vector<PeerFigure>& peers, const Config& config);

// Each benchmark of `suite` with peer rows (rows whose yardstick is none of own_yardsticks),
// against the best of its peers: the figure a user would otherwise get on the same device.
void print_peer_summary(const std::vector<Row>& rows, const std::string& suite, const std::vector<std::string>& own_yardsticks,
                        const char* variable, std::ostream& out);

}  // namespace clatomics::bench
