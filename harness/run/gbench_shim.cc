// gbench_shim.cc - Google Benchmark behind a C API (see gbench.h); the only
// C++ file of harness/. Pitfalls of Google Benchmark 1.7.1 (Debian 12) this
// file works around: flags set in code change the benchmark's name (results
// are keyed on wallbench's own axes instead), SetIterationTime is called on
// every iteration, no exception leaves a function called from C, 1.7.1 has
// no SkipWithMessage, and the default display reporter is left to the
// library (it is a function-static object: never deleted).
// error.h is plain C without extern "C" guards: included first, with C
// linkage, so that gbench.h's own include of it is a no-op.
extern "C" {
#include "harness/base/error.h"
}
#include "harness/run/gbench.h"

#include <benchmark/benchmark.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

struct Bench {
    std::string name;  // as registered; Google Benchmark appends its suffixes
    int iterations;
    const wb_gb_calls *calls;
    void *ctx;
    int calls_made;    // the repetition index of the next call
};

std::vector<std::unique_ptr<Bench>> g_benches;
int g_repetitions = 1;  // --benchmark_repetitions, for the progress count only
bool g_listing = false; // --benchmark_list_tests
bool g_own_console = true; // --benchmark_format is console (the default): the suite's one-line reporter
std::vector<std::string> g_lines; // point lines waiting for the reporter (repetitions report together)

// The console reporter of the suite: one line per point, written by the C
// side (wb_gb_line) with the stored median, rate, noise and ETA, instead of
// Google Benchmark's table (host CPU time that means nothing with manual
// timing, rounding to 0.001 ms, a name suffix, a misleading DEBUG banner).
// Warnings go to stderr where they are raised.
class LineReporter : public benchmark::BenchmarkReporter {
  public:
    bool ReportContext(const Context &) override { return true; }
    void ReportRuns(const std::vector<Run> &) override { flush(); }
    void Finalize() override { flush(); }
    static void flush() {
        for (const auto &l : g_lines) std::fprintf(stdout, "%s\n", l.c_str());
        g_lines.clear();
        std::fflush(stdout);
    }
};

// 1.8 added SkipWithMessage; 1.7.1 can only skip with an error. Detected on the
// type so that one source builds against both.
template <typename S, typename = void>
struct has_skip_message : std::false_type {};
template <typename S>
struct has_skip_message<S, std::void_t<decltype(std::declval<S &>().SkipWithMessage(std::string()))>>
    : std::true_type {};

template <typename S>
void report_skip(S &st, const char *msg) {
    if constexpr (has_skip_message<S>::value)
        st.SkipWithMessage(std::string(msg));
    else
        st.SkipWithError((std::string("skipped: ") + msg).c_str());
}

// Value of the last "--<name>=value" (or bare "--<name>", value "") in argv,
// as Google Benchmark parses its flags; nullptr if absent.
const char *flag_value(int argc, char **argv, const char *name) {
    const char *v = nullptr;
    size_t len = std::strlen(name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (std::strncmp(a, "--", 2) != 0 || std::strncmp(a + 2, name, len) != 0) continue;
        if (a[2 + len] == '=') v = a + 3 + len;
        else if (a[2 + len] == '\0') v = a + 2 + len;
    }
    return v;
}

// Google Benchmark's reading of a bool flag: bare or anything but a false word.
bool truthy(const char *v) {
    if (!*v) return true;
    std::string s(v);
    for (auto &ch : s) ch = (char)std::tolower((unsigned char)ch);
    return !(s == "0" || s == "f" || s == "n" || s == "false" || s == "no" || s == "off");
}

void run_call(benchmark::State &st, Bench *b) {
    wb_err e;
    e.msg[0] = '\0';
    int status = b->calls->setup(b->ctx, b->calls_made++, &e);
    bool complete = false;
    if (status == WB_OK) {
        int i = 0;
        while (st.KeepRunning()) {
            double seconds = 0;
            if (b->calls->sample(b->ctx, i++, &seconds, &e) != WB_OK) {
                status = WB_ERR;
                break;
            }
            st.SetIterationTime(seconds);
        }
        complete = status == WB_OK;
    }
    status = b->calls->finish(b->ctx, status, reinterpret_cast<wb_gb_state *>(&st), &e);
    // A call that ends before its last iteration must report an error, or the
    // library aborts ("Benchmark returned before State::KeepRunning() returned false").
    if (status == WB_OK && !complete) {
        status = WB_ERR;
        std::snprintf(e.msg, sizeof e.msg, "samples stopped early");
    }
    if (status == WB_SKIP)
        report_skip(st, e.msg);
    else if (status != WB_OK)
        st.SkipWithError(e.msg);
}

}  // namespace

extern "C" int wb_gb_init(int *argc, char **argv, wb_err *e) {
    try {
        for (int i = 1; i < *argc; i++)
            if (std::strcmp(argv[i], "--help") == 0 || std::strncmp(argv[i], "--help=", 7) == 0)
                return wb_fail(e, "--help is answered by wallbench, not passed to Google Benchmark");
        for (const char *f : {"benchmark_format", "benchmark_out_format"}) {
            const char *v = flag_value(*argc, argv, f);
            if (v && std::strcmp(v, "console") != 0 && std::strcmp(v, "json") != 0 && std::strcmp(v, "csv") != 0)
                return wb_fail(e, "--%s=%s: expected console, json or csv", f, v);
        }
        // Warm-up calls would run the whole point with another iteration
        // count and store rows; the harness warms up itself (--warmup).
        const char *w = flag_value(*argc, argv, "benchmark_min_warmup_time");
        if (w && std::strtod(w, nullptr) != 0.0)
            return wb_fail(e, "--benchmark_min_warmup_time=%s: use wallbench's --warmup W instead", w);
        const char *c = flag_value(*argc, argv, "benchmark_color");
        if (c && !*c) return wb_fail(e, "--benchmark_color needs a value (auto, true or false)");
        const char *r = flag_value(*argc, argv, "benchmark_repetitions");
        if (!r) r = std::getenv("BENCHMARK_REPETITIONS");
        if (r) {
            char *end = nullptr;
            long v = std::strtol(r, &end, 10);
            if (end != r && *end == '\0' && v > 0 && v < 1000000) g_repetitions = (int)v;
        }
        const char *fmt = flag_value(*argc, argv, "benchmark_format");
        if (!fmt) fmt = std::getenv("BENCHMARK_FORMAT");
        g_own_console = !fmt || std::strcmp(fmt, "console") == 0;
        const char *l = flag_value(*argc, argv, "benchmark_list_tests");
        if (!l) l = std::getenv("BENCHMARK_LIST_TESTS");
        g_listing = l && truthy(l);
        benchmark::Initialize(argc, argv);
        return WB_OK;
    } catch (const std::exception &x) {
        return wb_fail(e, "Google Benchmark Initialize: %s", x.what());
    } catch (...) {
        return wb_fail(e, "Google Benchmark Initialize: unknown exception");
    }
}

extern "C" int wb_gb_listing(void) { return g_listing ? 1 : 0; }

extern "C" int wb_gb_register(const char *name, int iterations, const wb_gb_calls *calls, void *ctx, wb_err *e) {
    if (iterations < 1) return wb_fail(e, "benchmark %s: %d iterations (need >= 1)", name, iterations);
    try {
        g_benches.push_back(std::make_unique<Bench>(Bench{name, iterations, calls, ctx, 0}));
        Bench *b = g_benches.back().get();
        // Captures the Bench pointer by value: the lambda outlives this frame.
        benchmark::RegisterBenchmark(b->name.c_str(), [b](benchmark::State &st) {
            try {
                run_call(st, b);
            } catch (...) {
                // Only the library's own string copies can throw here; the
                // error keeps Google Benchmark from checking the iteration count.
                st.SkipWithError("exception in the Google Benchmark shim");
            }
        })
            ->UseManualTime()
            ->Iterations(iterations)
            ->Unit(benchmark::kMillisecond);
        return WB_OK;
    } catch (const std::exception &x) {
        return wb_fail(e, "registering benchmark %s: %s", name, x.what());
    } catch (...) {
        return wb_fail(e, "registering benchmark %s: unknown exception", name);
    }
}

extern "C" int64_t wb_gb_selected(unsigned char *selected, wb_err *e) {
    try {
        std::string spec = benchmark::GetBenchmarkFilter();
        if (spec.empty() || spec == "all") spec = ".";
        bool negate = spec[0] == '-';
        if (negate) spec.erase(0, 1);
        std::regex re;
        try {
            re = std::regex(spec, std::regex_constants::extended);
        } catch (const std::regex_error &x) {
            wb_fail(e, "--benchmark_filter=%s is no valid regular expression: %s", spec.c_str(), x.what());
            return -1;
        }
        int64_t n = 0;
        for (const auto &b : g_benches) {
            // The full name Google Benchmark matches: Iterations() and
            // UseManualTime() in code append these two parts.
            std::string full = b->name + "/iterations:" + std::to_string(b->iterations) + "/manual_time";
            const bool in = std::regex_search(full, re) != negate;
            if (selected) *selected++ = in ? 1 : 0;
            if (in) n++;
        }
        return n * g_repetitions;
    } catch (const std::exception &x) {
        wb_fail(e, "counting selected benchmarks: %s", x.what());
        return -1;
    }
}

extern "C" int wb_gb_run(int64_t *matched, wb_err *e) {
    try {
        if (g_own_console && !g_listing) {
            LineReporter lines; // --benchmark_out still gets the library's file reporter
            *matched = (int64_t)benchmark::RunSpecifiedBenchmarks(&lines);
            LineReporter::flush();
        } else {
            *matched = (int64_t)benchmark::RunSpecifiedBenchmarks();
        }
        return WB_OK;
    } catch (const std::exception &x) {
        return wb_fail(e, "Google Benchmark run: %s", x.what());
    } catch (...) {
        return wb_fail(e, "Google Benchmark run: unknown exception");
    }
}

extern "C" void wb_gb_counter(wb_gb_state *st, const char *name, double value) {
    try {
        reinterpret_cast<benchmark::State *>(st)->counters[name] = benchmark::Counter(value);
    } catch (...) {
        // A counter is display only; the value is in the results file.
    }
}

extern "C" void wb_gb_line(const char *line) {
    try {
        if (g_own_console) {
            g_lines.emplace_back(line);
            return;
        }
    } catch (...) {
    }
    // Google Benchmark's JSON or CSV owns stdout: the point lines go to stderr.
    std::fprintf(stderr, "%s\n", line);
}

extern "C" void wb_gb_shutdown(void) {
    try {
        benchmark::ClearRegisteredBenchmarks();
        benchmark::Shutdown();
        g_benches.clear();
    } catch (...) {
    }
}
