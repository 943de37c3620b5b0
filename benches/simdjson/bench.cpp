// simdjson (C++) on a JSON Lines file, in memory, for benches/validators.sh:
//
//   simdjson-bench MODE FILE [RUNS]
//   simdjson-bench kernel      # the kernel simdjson picked for this CPU
//   simdjson-bench version     # simdjson's version
//
// MODE `line`: every line parsed on its own with the DOM parser, as aoi
// validates a line (in place: the file is read into a padded buffer, so
// every line has simdjson's padding readable after it); MODE `many`: the
// whole file at once with parse_many, simdjson's batch mode for JSON Lines
// (one structural pass over 1 MB windows, on this thread). A DOM parse
// validates what it reads (grammar, strings, UTF-8, numbers) and also
// builds its tape. Prints `MODE MB/s valid` (the median of RUNS, default 7),
// as aoi-validators-bench does.
//
// `valid` counts lines in `line` mode, documents in `many` mode, which is
// not the same job as aoi's: parse_many splits on values, not on line
// feeds (`1 2` on one line is two documents, a value may span lines), and
// it stops at the first error, as it does at a document over its 1 MB
// window. On the generated streams (one object per line, all valid) the
// two counts agree, which benches/validators.sh checks.
#include "simdjson.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc == 2 && std::string(argv[1]) == "kernel") {
    std::printf("%s\n", simdjson::get_active_implementation()->name().c_str());
    return 0;
  }
  if (argc == 2 && std::string(argv[1]) == "version") {
    std::printf("%s\n", SIMDJSON_VERSION);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: simdjson-bench line|many FILE [RUNS]\n");
    return 2;
  }
  std::string mode = argv[1];
  int runs = argc > 3 ? std::atoi(argv[3]) : 7;
  if (runs <= 0 || (mode != "line" && mode != "many")) {
    std::fprintf(stderr, "usage: simdjson-bench line|many FILE [RUNS]\n");
    return 2;
  }
  simdjson::padded_string data;
  if (simdjson::padded_string::load(argv[2]).get(data)) {
    std::fprintf(stderr, "%s: cannot read\n", argv[2]);
    return 1;
  }
  simdjson::dom::parser parser;
#ifdef SIMDJSON_THREADS_ENABLED
  // parse_many would otherwise index the next window on a second thread:
  // one core is timed here, as for every other parser.
  parser.threaded = false;
#endif
  std::vector<double> times;
  size_t valid = 0;
  for (int r = 0; r < runs; r++) {
    auto t0 = std::chrono::steady_clock::now();
    valid = 0;
    if (mode == "many") {
      simdjson::dom::document_stream stream;
      if (parser.parse_many(data, 1 << 20).get(stream)) {
        std::fprintf(stderr, "parse_many failed\n");
        return 1;
      }
      for (auto doc : stream) {
        valid += doc.error() ? 0 : 1;
      }
    } else {
      const char *p = data.data();
      const char *end = p + data.size();
      while (p < end) {
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', end - p));
        if (!nl) {
          nl = end;
        }
        valid += parser.parse(p, nl - p, false).error() ? 0 : 1;
        p = nl + 1;
      }
    }
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("simdjson-%s %.0f %zu\n", mode.c_str(), data.size() / times[runs / 2] / 1e6, valid);
  return 0;
}
