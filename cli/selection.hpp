// Choosing implementations by name: shared by gjkref eval and gjkref check.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gjkref/implementations.hpp"

namespace gjkref::cli {

// Does `wanted` (a name, or a group: a leading part ending before a '-', "reference" for every reference-*) choose
// `name`? select_implementations reads a wanted string that is some implementation's whole name as that name alone.
bool chooses(const std::string& wanted, const std::string& name);

// The built-in implementations and those of `plugins`, filtered by `wanted` (empty: all, with every plugin's). On an
// unknown name, a plugin that does not load, or a built-in plugin missing: nullopt, with the reason on `err`.
// `known`, when given, receives every implementation's name, chosen or not (for reading other lists of names as
// --impl reads them: named_by).
std::optional<std::vector<std::unique_ptr<impl::Implementation>>> select_implementations(
    const std::vector<std::string>& wanted, const std::vector<std::string>& plugins, std::ostream& err,
    impl::WorkerLimits limits = {}, std::vector<std::string>* known = nullptr);

// Does `wanted` choose `name`, read as --impl reads it: a string that is the whole name of one of `known` (every
// implementation's name) chooses that one alone, any other is a group (chooses).
bool named_by(const std::string& wanted, const std::string& name, const std::vector<std::string>& known);

}  // namespace gjkref::cli
