// A plain main for a fuzz target, built with any compiler (docs/fuzzing.md): it replays files — each argument a
// file, or a directory whose regular files are replayed in name order — through LLVMFuzzerTestOneInput, so the
// committed corpora run as ordinary tests and the targets never stop compiling. A finding aborts, as under libFuzzer;
// each input is named on stderr before it runs, so the last one named is the finding's.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else if (std::filesystem::is_regular_file(arg)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {  // replayed as an empty input it would pass, having checked nothing
      std::fprintf(stderr, "replay: %s: cannot be read\n", file.c_str());
      return 2;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
      std::fprintf(stderr, "replay: %s: read error\n", file.c_str());
      return 2;
    }
    // Named before it runs: a finding aborts, and its input is the last one named.
    std::fprintf(stderr, "replay: %s\n", file.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  // Nothing to replay means the test checked nothing: that is a failure, not a pass.
  return files.empty() ? 1 : 0;
}
