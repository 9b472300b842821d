#include "selection.hpp"

#include <algorithm>

#include "text.hpp"

namespace gjkref::cli {

bool chooses(const std::string& wanted, const std::string& name) {
  return wanted == name || (name.size() > wanted.size() && name.compare(0, wanted.size(), wanted) == 0 &&
                            name[wanted.size()] == '-');
}

std::optional<std::vector<std::unique_ptr<impl::Implementation>>> select_implementations(
    const std::vector<std::string>& wanted, const std::vector<std::string>& plugins, std::ostream& err,
    impl::WorkerLimits limits, std::vector<std::string>* known) {
  impl::PluginLoad builtin = impl::open_builtin_implementations(limits);
  if (builtin.status == impl::LoadStatus::TimedOut) {
    // Present but slow: the build is not the question, the machine's load or the library's initialisers are.
    err << "gjkref: a built-in plugin did not load within its time limit (GJKREF_PLUGIN_DIR="
        << impl::builtin_plugin_directory() << "):\n" << builtin.error << "\n";
    return std::nullopt;
  }
  if (builtin.status != impl::LoadStatus::Loaded) {
    err << "gjkref: a built-in plugin did not load (is the build complete? GJKREF_PLUGIN_DIR="
        << impl::builtin_plugin_directory()
        << (limits.memory_mib > 0 && limits.memory_mib != impl::kDefaultWorkerMemoryLimitMiB
                ? "; or is --memory-limit too small?"
                : "")
        << "):\n" << builtin.error << "\n";
    return std::nullopt;
  }
  auto all = std::move(builtin.implementations);
  const std::size_t builtins = all.size();
  std::vector<std::string> from_plugins;
  for (const std::string& path : plugins) {
    if (path.empty()) {  // dlopen("") opens gjkref itself, and the message was that it exports no plugin function
      err << "gjkref: --plugin is empty: it names no library\n";
      return std::nullopt;
    }
    impl::PluginLoad loaded = impl::open_plugin(path, limits);
    if (loaded.status != impl::LoadStatus::Loaded) {
      err << "gjkref: plugin " << one_line(loaded.error) << "\n";
      return std::nullopt;
    }
    for (auto& i : loaded.implementations) {
      from_plugins.push_back(i->info().name);
      all.push_back(std::move(i));
    }
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (all[i]->info().name == all[k]->info().name) {
        err << "gjkref: two implementations are named '" << all[i]->info().name << "' ("
            << one_line(all[k]->info().source) << " and " << one_line(all[i]->info().source) << ")\n";
        return std::nullopt;
      }
  // The built-in implementations' groups are their libraries' names, the first word of theirs: a plugin's
  // implementation named as one ("reference", "libccd") would be chosen alone by --impl with that name (a whole name
  // chooses one implementation, below), and the group could not be asked for; one named in one ("reference-mine")
  // would join it. Refused, whatever this build has (a build without the peers knows no "bullet" of its own).
  std::vector<std::string> libraries = {"reference", "libccd", "bullet", "box2d", "fcl", "boost", "chipmunk"};
  for (std::size_t k = 0; k < builtins; ++k) {
    const std::string& name = all[k]->info().name;
    libraries.push_back(name.substr(0, name.find('-')));
  }
  for (std::size_t i = builtins; i < all.size(); ++i)
    for (const std::string& library : libraries)
      if (chooses(library, all[i]->info().name)) {
        err << "gjkref: plugin " << one_line(all[i]->info().source) << ": its implementation '" << all[i]->info().name
            << "' is named in the group of the built-in " << library << " implementations: --impl " << library
            << " would choose it with them, or alone; rename it\n";
        return std::nullopt;
      }
  std::vector<std::string> names;
  for (const auto& i : all) names.push_back(i->info().name);
  if (known) *known = names;
  if (wanted.empty()) return all;
  for (const std::string& w : wanted)
    if (std::none_of(all.begin(), all.end(), [&](const auto& i) { return chooses(w, i->info().name); })) {
      err << "gjkref: unknown implementation '" << one_line(w) << "'; known:";
      for (const auto& i : all) err << " " << i->info().name;
      err << "\n";
      return std::nullopt;
    }
  // A wanted string that is some implementation's whole name chooses that one alone ("libccd-gjk" is not also
  // "libccd-gjk-epa"); any other is a group (named_by).
  const auto named = [&](const std::string& name) {
    return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return named_by(w, name, names); });
  };
  // A plugin given on the command line is run whole — asking for it was the point — unless --impl names some of its
  // implementations: then only those (gating a CI job on one implementation of a library of several).
  const bool plugin_named = std::any_of(from_plugins.begin(), from_plugins.end(), named);
  std::vector<std::unique_ptr<impl::Implementation>> chosen;
  for (auto& i : all) {
    const std::string& name = i->info().name;
    const bool plugged = std::find(from_plugins.begin(), from_plugins.end(), name) != from_plugins.end();
    if (named(name) || (plugged && !plugin_named)) chosen.push_back(std::move(i));
  }
  return chosen;
}

bool named_by(const std::string& wanted, const std::string& name, const std::vector<std::string>& known) {
  if (std::find(known.begin(), known.end(), wanted) != known.end()) return wanted == name;
  return chooses(wanted, name);
}

}  // namespace gjkref::cli
