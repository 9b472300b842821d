// The source identity of this build of gjkref: a hash of the files that decide what `gjkref check` generates, answers
// and judges, committed or not, computed at every build (cli/source_id.cmake); "unknown" outside a git work tree.
#pragma once

namespace gjkref::cli {
const char* source_id();
}  // namespace gjkref::cli
