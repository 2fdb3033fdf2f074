// `plexus syclbin`: dump, create and extract SYCLBIN files (libplexus-syclbin).
#include <filesystem>
#include <iostream>
#include <sstream>

#include "command_line.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "plexus/error.hpp"
#include "plexus/syclbin/mapped_file.hpp"
#include "plexus/syclbin/syclbin.hpp"
#include "syclbin_plan.hpp"

namespace plexus::tool {

namespace {

namespace sb = plexus::syclbin;

constexpr const char* syclbin_usage = R"(usage: plexus syclbin dump FILE
       plexus syclbin create -o OUT [--state S] [--kernel NAME]... [--bare]
                             [--ir TYPE:TRIPLE:FILE]... [--native ARCH[:TRIPLE]:FILE]...
       plexus syclbin extract FILE -o OUT [--module N] (--ir N | --native N)
       plexus syclbin plan FILE [--config FILE] [--load]

SYCLBIN version 1 files (DPC++'s container for separately compiled device code).

  dump      the global metadata, then each abstract module's metadata, IR modules (type,
            target triple, size) and native images (architecture, size)
  create    one abstract module from the given images; written inside an OffloadBinary as
            DPC++ writes it (--bare: the SYCLBIN bytes alone)
              --state S       input, object or executable (default: executable)
              --kernel NAME   a kernel the module defines ([SYCL/kernel names]); repeat
              --ir TYPE:TRIPLE:FILE   TYPE: spirv, ptx, amdgcn or llvm-bc
              --native ARCH[:TRIPLE]:FILE   a device binary for ARCH (sm_80, gfx90a, ...);
                              the triple defaults from ARCH (sm_*: nvptx64-nvidia-cuda,
                              gfx*: amdgcn-amd-amdhsa)
  extract   writes the bytes of one image (abstract module N, default 0) to OUT (-o -:
            standard output)
  plan      per available device, the image it would run (per abstract module) and why, or
            why none fits (exit status 1 when no device fits); --load loads it too
)";

std::vector<std::byte> read_bytes(const std::filesystem::path& file) {
  const std::string text = read_input(file);
  const auto* begin = reinterpret_cast<const std::byte*>(text.data());
  return {begin, begin + text.size()};
}

std::string value_text(const sb::PropertyValue& value) {
  if (const auto* number = value.as_uint32()) return std::to_string(*number);
  const sb::ByteArray& array = *value.as_byte_array();
  bool printable = array.bit_size % 8 == 0;
  for (std::byte b : array.bytes) printable = printable && unsigned(b) >= 0x20 && unsigned(b) < 0x7f;
  if (printable) return std::string(array.as_string());
  std::ostringstream out;
  out << "<" << array.bytes.size() << " bytes, " << array.bit_size << " bits:";
  for (std::size_t i = 0; i < array.bytes.size() && i < 32; ++i) {
    out << ' ' << std::hex << (unsigned(array.bytes[i]) >> 4) << (unsigned(array.bytes[i]) & 15)
        << std::dec;
  }
  out << (array.bytes.size() > 32 ? " ...>" : ">");
  return out.str();
}

void print_properties(const sb::PropertySetRegistry& registry, const std::string& indent) {
  if (registry.empty()) std::cout << indent << "(none)\n";
  for (const auto& set : registry.sets()) {
    std::cout << indent << set.name() << ":\n";
    for (const auto& property : set.properties()) {
      std::cout << indent << "  " << property.name << ": " << value_text(property.value) << '\n';
    }
  }
}

int dump(const std::vector<std::string>& files) {
  if (files.size() != 1) {
    throw usage_error("plexus syclbin dump takes one file");
  }
  const auto mapping = std::make_shared<sb::MappedFile>(files[0]);
  sb::Syclbin syclbin;
  try {
    syclbin = sb::Syclbin::read(mapping->bytes());
  } catch (const error& bad) {
    throw error(bad.category(), files[0] + ": " + bad.what());
  }
  const auto offset_of = [&](sb::Bytes bytes) {
    return bytes.empty() ? std::string() : " at byte " + std::to_string(bytes.data() - mapping->bytes().data());
  };
  std::cout << "File: " << files[0] << " (" << mapping->bytes().size() << " bytes, "
            << (syclbin.was_wrapped() ? "in an OffloadBinary" : "bare") << ")\n";
  std::cout << "Version: " << sb::format_version << '\n';
  const auto state = syclbin.state();
  std::cout << "State: " << (state ? std::string(sb::to_string(*state)) : "not given") << '\n';
  std::cout << "Global metadata:\n";
  print_properties(syclbin.global_metadata, "  ");
  std::cout << "Number of abstract modules: " << syclbin.abstract_modules.size() << '\n';
  for (std::size_t m = 0; m < syclbin.abstract_modules.size(); ++m) {
    const sb::AbstractModule& module = syclbin.abstract_modules[m];
    std::cout << "Abstract module " << m << ":\n  Metadata:\n";
    print_properties(module.metadata, "    ");
    std::cout << "  Number of IR modules: " << module.ir_modules.size() << '\n';
    for (std::size_t i = 0; i < module.ir_modules.size(); ++i) {
      const sb::IRModule& ir = module.ir_modules[i];
      const auto type = ir.type();
      std::cout << "  IR module " << i << ": "
                << (type ? sb::to_string(static_cast<sb::IRType>(*type)) : std::string("no type"))
                << ", target " << (ir.target().empty() ? "not given" : ir.target()) << ", "
                << ir.bytes.size() << " bytes" << offset_of(ir.bytes) << "\n    Metadata:\n";
      print_properties(ir.metadata, "      ");
    }
    std::cout << "  Number of native device code images: " << module.native_images.size() << '\n';
    for (std::size_t i = 0; i < module.native_images.size(); ++i) {
      const sb::NativeImage& image = module.native_images[i];
      std::cout << "  Native device code image " << i << ": arch "
                << (image.arch().empty() ? "not given" : image.arch()) << ", target "
                << (image.target().empty() ? "not given" : image.target()) << ", "
                << image.bytes.size() << " bytes" << offset_of(image.bytes) << "\n    Metadata:\n";
      print_properties(image.metadata, "      ");
    }
  }
  return 0;
}

std::string default_triple_for_arch(std::string_view arch) {
  if (arch.starts_with("sm_")) return "nvptx64-nvidia-cuda";
  if (arch.starts_with("gfx")) return "amdgcn-amd-amdhsa";
  return "";
}

int create(const CommandLine& line) {
  const auto output = line.value("output");
  if (!output) throw usage_error("plexus syclbin create needs -o OUT");
  if (!line.positional().empty()) {
    throw usage_error("plexus syclbin create takes no positional arguments (images go in --ir and "
                "--native)");
  }
  sb::Syclbin syclbin;
  const std::string state_text = line.value("state").value_or("executable");
  const auto state = sb::parse_state(state_text);
  if (!state) {
    throw usage_error("unknown state '" + state_text + "' (expected input, object or executable)");
  }
  syclbin.set_state(*state);
  sb::AbstractModule& module = syclbin.add_abstract_module(line.values("kernel"));
  for (const auto& spec : line.values("ir")) {
    const auto first = spec.find(':');
    const auto second = first == std::string::npos ? first : spec.find(':', first + 1);
    if (second == std::string::npos) {
      throw usage_error("--ir '" + spec + "': expected TYPE:TRIPLE:FILE (e.g. spirv:spir64-unknown-unknown:k.spv)");
    }
    const std::string type_text = spec.substr(0, first);
    const auto type = sb::parse_ir_type(type_text);
    if (!type) {
      throw usage_error("--ir '" + spec + "': unknown IR type '" + type_text +
                      "' (expected spirv, ptx, amdgcn or llvm-bc)");
    }
    const auto bytes = syclbin.keep(read_bytes(spec.substr(second + 1)));
    module.ir_modules.push_back(
        sb::Syclbin::make_ir_module(*type, spec.substr(first + 1, second - first - 1), bytes));
  }
  for (const auto& spec : line.values("native")) {
    const auto first = spec.find(':');
    if (first == std::string::npos || first == 0) {
      throw usage_error("--native '" + spec + "': expected ARCH[:TRIPLE]:FILE (e.g. sm_80:k.cubin)");
    }
    const std::string arch = spec.substr(0, first);
    std::string rest = spec.substr(first + 1), triple = default_triple_for_arch(arch);
    if (const auto colon = rest.find(':');
        colon != std::string::npos && !std::filesystem::exists(rest)) {
      triple = rest.substr(0, colon);
      rest = rest.substr(colon + 1);
    }
    const auto bytes = syclbin.keep(read_bytes(rest));
    module.native_images.push_back(sb::Syclbin::make_native_image(arch, triple, bytes));
  }
  if (module.ir_modules.empty() && module.native_images.empty()) {
    throw usage_error("plexus syclbin create needs at least one --ir or --native image");
  }
  const auto bytes = syclbin.write(line.flag("bare") ? sb::Wrapping::bare : sb::Wrapping::offload_binary);
  write_output(*output, bytes);
  report_stream(*output) << "wrote " << output_name(*output) << " (" << bytes.size() << " bytes, SYCLBIN, state "
            << state_text << ": " << module.ir_modules.size() << " IR modules, "
            << module.native_images.size() << " native images)\n";
  return 0;
}

std::size_t parse_index(const std::string& text, const char* option) {
  std::size_t used = 0;
  unsigned long value = 0;
  try {
    value = std::stoul(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw usage_error(std::string("--") + option + " '" + text + "' is not an index");
  }
  return value;
}

int extract(const CommandLine& line) {
  if (line.positional().size() != 1 || !line.value("output")) {
    throw usage_error("plexus syclbin extract takes one FILE and -o OUT (see --help)");
  }
  if (line.value("ir").has_value() == line.value("native").has_value()) {
    throw usage_error("plexus syclbin extract needs exactly one of --ir N and --native N");
  }
  const auto syclbin = sb::Syclbin::read_file(line.positional()[0]);
  const std::size_t m = parse_index(line.value("module").value_or("0"), "module");
  if (m >= syclbin.abstract_modules.size()) {
    throw error(error_category::invalid_argument,
                "no abstract module " + std::to_string(m) + " (the file has " +
                    std::to_string(syclbin.abstract_modules.size()) + ")");
  }
  const auto& module = syclbin.abstract_modules[m];
  sb::Bytes bytes;
  if (line.value("ir")) {
    const std::size_t i = parse_index(*line.value("ir"), "ir");
    if (i >= module.ir_modules.size()) {
      throw error(error_category::invalid_argument,
                  "abstract module " + std::to_string(m) + " has no IR module " +
                      std::to_string(i) + " (it has " + std::to_string(module.ir_modules.size()) + ")");
    }
    bytes = module.ir_modules[i].bytes;
  } else {
    const std::size_t i = parse_index(*line.value("native"), "native");
    if (i >= module.native_images.size()) {
      throw error(error_category::invalid_argument,
                  "abstract module " + std::to_string(m) + " has no native image " +
                      std::to_string(i) + " (it has " + std::to_string(module.native_images.size()) + ")");
    }
    bytes = module.native_images[i].bytes;
  }
  write_output(*line.value("output"), bytes);
  report_stream(*line.value("output"))
      << "wrote " << output_name(*line.value("output")) << " (" << bytes.size() << " bytes)\n";
  return 0;
}

}  // namespace

int syclbin_command(const std::vector<std::string>& raw_args) {
  std::vector<std::string> args = raw_args;
  for (auto& arg : args) {
    if (arg == "-o") arg = "--output";
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << syclbin_usage;
    return args.empty() ? 2 : 0;
  }
  const std::string sub = args[0];
  args.erase(args.begin());
  CommandLine line(args, {"output", "state", "kernel", "ir", "native", "module", "config"},
                   {"help", "bare", "load"});
  if (line.flag("help")) {
    std::cout << syclbin_usage;
    return 0;
  }
  if (sub == "dump") return dump(line.positional());
  if (sub == "create") return create(line);
  if (sub == "extract") return extract(line);
  if (sub == "plan") return syclbin_plan(line);
  throw usage_error("unknown syclbin command '" + sub + "' (expected dump, create, extract or plan)");
}

}  // namespace plexus::tool
