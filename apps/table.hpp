// Text tables and sizes as the commands print them (info's paths, demo's lessons, bench's rows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace clatomics::cli {

// Columns aligned, the first row the header, underlined; every line indented by `indent`.
std::string text_table(const std::vector<std::vector<std::string>>& rows, std::size_t indent = 0);

// One line of a list of names: "  race        the lost update: ...\n" (the name in 12 columns).
std::string named_line(const std::string& name, const std::string& text, std::size_t indent = 2);

// "64 KiB", "3.6 GiB": powers of 1024, about three significant digits.
std::string bytes_name(std::uint64_t bytes);

}  // namespace clatomics::cli
