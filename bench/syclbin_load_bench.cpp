// plexus-bench-syclbin-load (issue 7's benchmark): loading a SYCLBIN with many modules
// (>= 100 MB). It writes a file of --modules abstract modules, each with a distinct kernel
// compiled to host bitcode (an IR module) and a native image for another device ("sm_90",
// pseudo-random bytes) that brings the file to --mib MiB, then measures with the page cache
// warm, median of --reps:
//   read      the whole file into memory (std::ifstream::read): the baseline
//   parse     Syclbin::read over those bytes (every header, table and property set checked;
//             payloads are views, not copies): goal < 5% of `read`
//   map+parse Syclbin::read_file (mmap; payload pages are never touched)
//   plan      the image choice for every device
//   bundle    load_bundle in a fresh runtime (cold program cache: --modules host modules
//             JIT-compiled), and again in the same runtime (program cache hits)
// and checks that the last module's kernel runs. Usage: [--modules 100] [--mib 100] [--reps 5]
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>

#include "bench_support.hpp"
#include "plexus/compiler.hpp"
#include "plexus/plexus.hpp"
#include "plexus/syclbin/bundle.hpp"
#include "plexus/syclbin/kernel_metadata.hpp"

namespace sb = plexus::syclbin;

namespace {

plexus::Config host_config() {
  return plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"host\"]\n[scheduler]\nuse = \"inorder\"\n"
      "[memory]\nuse = \"whole\"\n[compiler]\nuse = \"clang\"\n[cache]\nuse = \"memory\"\n",
      "syclbin-bench.toml");
}

std::string kernel_source(long i) {
  return "__kernel void k" + std::to_string(i) +
         "(__global int* v) { size_t g = get_global_id(0); v[g] = v[g] * 3 + " +
         std::to_string(i) + "; }\n";
}

sb::Syclbin make_file(plexus::Runtime& rt, long modules, long mib) {
  plexus::Compiler* compiler = rt.components().compiler();
  if (!compiler) throw std::runtime_error("no compiler");
  sb::Syclbin file;
  file.set_state(sb::State::executable);
  const std::size_t padding = std::size_t(mib) * 1024 * 1024 / std::size_t(modules);
  std::mt19937_64 random(42);
  for (long i = 0; i < modules; ++i) {
    plexus::CompileRequest request;
    request.source = kernel_source(i);
    request.target = plexus::BinaryFormat::llvm_bitcode;
    plexus::CompileResult result = compiler->compile(request);
    if (!result.succeeded) throw std::runtime_error(result.log);
    sb::AbstractModule& module = file.add_abstract_module({"k" + std::to_string(i)});
    sb::set_kernel_info(module.metadata, result.kernels);
    module.ir_modules.push_back(sb::Syclbin::make_ir_module(
        sb::IRType::llvm_bitcode, "x86_64-unknown-linux-gnu", file.keep(std::move(result.binary))));
    std::vector<std::byte> native(padding);
    for (std::size_t b = 0; b + 8 <= padding; b += 8) {
      const std::uint64_t word = random();
      std::memcpy(native.data() + b, &word, 8);
    }
    module.native_images.push_back(
        sb::Syclbin::make_native_image("sm_90", "nvptx64-nvidia-cuda", file.keep(std::move(native))));
  }
  return file;
}

std::vector<std::byte> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::byte> bytes(std::filesystem::file_size(path));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return bytes;
}

template <class Work>
double median_seconds(long reps, Work&& work) {
  std::vector<double> times;
  for (long r = 0; r < reps; ++r) {
    const auto start = bench::clock::now();
    work();
    times.push_back(bench::seconds_since(start));
  }
  return bench::median(times);
}

void check_runs(plexus::Runtime& rt, const plexus::KernelBundle& bundle, long modules) {
  std::vector<int> v(64, 1);
  {
    plexus::Buffer<int> buffer(v.data(), v.size());
    rt.queue().submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("k" + std::to_string(modules - 1)), plexus::Range{v.size()},
                     buffer.access(h, plexus::read_write));
    });
    buffer.copy_to(v.data());
  }
  for (int value : v)
    if (value != 3 + int(modules - 1)) throw std::runtime_error("wrong result from the bundle");
}

}  // namespace

int main(int argc, char** argv) {
  const auto options = bench::parse_options(argc, argv, {{"modules", 100}, {"mib", 100}, {"reps", 5}});
  const long modules = options.at("modules"), mib = options.at("mib"), reps = options.at("reps");
  const auto path = std::filesystem::temp_directory_path() /
                    ("plexus-bench-syclbin-" + std::to_string(::getpid()) + ".syclbin");
  try {
    {
      plexus::Runtime rt(host_config());
      const auto start = bench::clock::now();
      make_file(rt, modules, mib).write_file(path);
      std::cout << "wrote " << std::filesystem::file_size(path) << " bytes (" << modules
                << " abstract modules) in " << std::fixed << std::setprecision(1)
                << bench::seconds_since(start) << " s\n";
    }
    read_file(path);  // warm the page cache
    const double read = median_seconds(reps, [&] { read_file(path); });
    const std::vector<std::byte> bytes = read_file(path);
    std::size_t seen = 0;
    const double parse = median_seconds(reps, [&] { seen = sb::Syclbin::read(bytes).abstract_modules.size(); });
    const double mapped = median_seconds(reps, [&] { sb::Syclbin::read_file(path); });
    if (seen != std::size_t(modules)) throw std::runtime_error("parsed the wrong module count");
    plexus::Runtime rt(host_config());
    const sb::Syclbin file = sb::Syclbin::read_file(path);
    const double plan = median_seconds(reps, [&] { sb::plan_for(rt, file); });
    auto start = bench::clock::now();
    plexus::KernelBundle bundle = sb::load_bundle(rt, path);
    const double cold = bench::seconds_since(start);
    check_runs(rt, bundle, modules);
    const double warm = median_seconds(reps, [&] { sb::load_bundle(rt, path); });
    const double mib_size = double(bytes.size()) / (1024.0 * 1024.0);
    std::cout << std::setprecision(2)
              << "file: " << mib_size << " MiB, " << modules << " modules, reps " << reps << "\n"
              << "read (ifstream into memory): " << read * 1e3 << " ms (" << mib_size / read
              << " MiB/s)\n"
              << "parse (Syclbin::read of the bytes): " << parse * 1e3 << " ms = "
              << 100.0 * parse / read << "% of read (goal < 5%)\n"
              << "map+parse (Syclbin::read_file): " << mapped * 1e3 << " ms\n"
              << "plan (image choice, 1 device): " << plan * 1e3 << " ms\n"
              << "bundle, cold program cache (" << modules << " host modules JIT-compiled): "
              << cold * 1e3 << " ms\n"
              << "bundle, warm program cache (map, parse, plan, hash, cache hits): "
              << warm * 1e3 << " ms\n"
              << "kernel k" << modules - 1 << " from the bundle: verified\n";
  } catch (const std::exception& failure) {
    std::cerr << "plexus-bench-syclbin-load: " << failure.what() << "\n";
    std::filesystem::remove(path);
    return 1;
  }
  std::filesystem::remove(path);
  return 0;
}
