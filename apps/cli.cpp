// The pieces every subcommand shares: device options, sizes, help layout, making the Runtime.
#include "cli.hpp"

#include <cctype>
#include <sstream>

namespace clatomics::cli {

Options DeviceChoice::options() const {
  Options o = Options::from_env();
  if (!device.empty()) o.device = device;
  if (force_cas) o.force_cas = true;
  return o;
}

CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description, const std::string& footer) {
  CLI::App* sub = app.add_subcommand(name);
  // the formatter ends the description with a line break of its own
  sub->description(!description.empty() && description.back() == '\n' ? description.substr(0, description.size() - 1) : description);
  sub->footer(footer + (footer.empty() ? "" : "\n") + exit_codes_help);
  return sub;
}

void add_device_options(CLI::App& app, DeviceChoice& choice, const std::string& force_cas_help) {
  app.add_option("--device", choice.device,
                 "an index from `clatomics info`, cpu, gpu, or part of the \"platform / device\" names\n"
                 "(default: CLATOMICS_DEVICE, else the first GPU, else CPU)")
      ->option_text("SEL")
      ->check(non_empty());
  app.add_flag("--force-cas", choice.force_cas, force_cas_help);
}

namespace {

// Usage first (what a reader looks for), then what the command does, its options, the footer.
// A command's description is a one-line summary, a blank line, then the details: the list of
// commands shows the summary only.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(22); }
  std::string make_subcommand(const CLI::App* sub) const override {
    const std::string& text = sub->get_description();
    std::ostringstream out;
    CLI::detail::format_help(out, sub->get_name(), text.substr(0, text.find('\n')), column_width_);
    return out.str();
  }
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return make_usage(app, name) + "\n" + make_description(app) + make_positionals(app) + make_groups(app, mode) +
           make_subcommands(app, mode) + "\n" + make_footer(app);
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

CLI::Option* add_size_option(CLI::App& app, const std::string& name, std::size_t& bytes, const std::string& help) {
  const CLI::Validator size([](std::string& text) {
    const std::string given = text;
    bool ok = !given.empty() && std::isdigit(static_cast<unsigned char>(given[0]));  // no sign, no blank
    try {
      ok = ok && CLI::AsSizeValue(false)(text).empty();  // "64K" -> "65536"
    } catch (const CLI::ValidationError&) {  // an unknown unit
      ok = false;
    }
    if (ok && text.find_first_not_of('0') != std::string::npos) return std::string();
    return "'" + given + "' is not a size in bytes of at least 1 (e.g. 4096, 64K, 256M, 1G)";
  }, "");
  return app.add_option(name, bytes, help)->option_text("BYTES")->transform(size);
}

CLI::Validator non_empty() {
  return CLI::Validator([](std::string& v) { return v.empty() ? std::string("needs a value") : std::string(); }, "");
}

CLI::Validator one_of(const std::string& what, std::function<std::vector<std::string>()> names) {
  return CLI::Validator(
      [what, names](std::string& value) {
        const auto all = names();
        if (std::find(all.begin(), all.end(), value) != all.end()) return std::string();
        std::string known;
        for (const auto& n : all) known += " " + n;
        return "unknown " + what + " '" + value + "' (" + what + "s:" + known + ")";
      },
      "");
}

cl::Device pick_device(const std::string& command, const Options& options) {
  try {
    return select_device(options.device.empty() ? device_selector_from_env() : options.device);
  } catch (const std::invalid_argument& e) {
    std::string message = e.what();
    if (message.rfind("clatomics: ", 0) == 0) message.erase(0, 11);  // main() names the program
    throw NoDeviceError(command, message);
  } catch (const Error& e) {
    // no ICD loaded (CL_PLATFORM_NOT_FOUND_KHR), or platforms without devices
    if (e.code() == CL_DEVICE_NOT_FOUND || e.code() == -1001) throw NoDeviceError(command, e.what());
    throw;
  }
}

std::unique_ptr<Runtime> make_runtime(const std::string& command, const Options& options) {
  pick_device(command, options);  // a missing device is a NoDeviceError before the Runtime's own error
  return std::make_unique<Runtime>(options);
}

std::string opencl_c_name(int version) { return std::to_string(version / 100) + "." + std::to_string(version / 10 % 10); }

}  // namespace clatomics::cli
