#include "jit_module.hpp"

#include <dlfcn.h>

#include <llvm/ADT/Triple.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdlib>
#include <mutex>
#include <optional>

#include "fiber_group.hpp"
#include "plexus/error.hpp"
#include "plexus/isolated_call.hpp"

namespace plexus::host {

namespace {

[[noreturn]] void fail(const std::string& message) {
  throw error(error_category::build, "host device: " + message);
}

void initialize_native_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::unique_ptr<llvm::Module> parse_here(std::span<const std::byte> bitcode,
                                         llvm::LLVMContext& context) {
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char*>(bitcode.data()), bitcode.size()), "module.bc");
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(buffer, context);
  if (!module) fail("the module is not valid LLVM bitcode: " + llvm::toString(module.takeError()));
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(**module, &stream))
    fail("the module is not valid LLVM IR: " + stream.str());
  return std::move(*module);
}

// The bitcode may come from a file (a SYCLBIN image loaded as is): LLVM's reader crashes on
// some malformed bitcode, so it is parsed in a child process first (run_isolated), then
// here (the reader is deterministic).
std::unique_ptr<llvm::Module> parse(std::span<const std::byte> bitcode,
                                    llvm::LLVMContext& context) {
  const IsolatedResult checked = run_isolated([&](std::string&, std::string&) {
    parse_here(bitcode, context);  // a copy of the context: the parent's is untouched
    return true;
  });
  if (!checked.succeeded) {
    if (checked.failure.starts_with("host device: ")) fail(checked.failure.substr(13));
    fail("the module is not valid LLVM bitcode: LLVM's bitcode reader failed on it (" +
         checked.failure + ")");
  }
  return parse_here(bitcode, context);
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, modules);
}

// Functions and variables the code uses but neither defines nor finds in the process.
std::string unresolved_symbols(const llvm::Module& module) {
  std::string missing;
  for (const llvm::GlobalValue& value : module.global_values()) {
    if (!value.isDeclaration() || value.use_empty() || value.getName().startswith("llvm.") ||
        value.getName() == "__plexus_barrier" || value.getName() == "__plexus_sub_group_barrier")
      continue;
    if (dlsym(RTLD_DEFAULT, value.getName().str().c_str())) continue;
    missing += (missing.empty() ? "" : ", ") + value.getName().str();
  }
  return missing;
}

// PLEXUS_HOST_DUMP_IR=FILE appends each optimised module's IR to FILE (to see what the
// work-group loops became: vectorised or not).
void dump_if_asked(const llvm::Module& module) {
  const char* file = std::getenv("PLEXUS_HOST_DUMP_IR");
  if (!file || !*file) return;
  std::error_code problem;
  llvm::raw_fd_ostream out(file, problem, llvm::sys::fs::OF_Append);
  if (!problem) module.print(out, nullptr);
}

// The bytes of the fixed-size stack allocations of `entry` (its private variables).
std::uint64_t stack_allocation_bytes(const llvm::Module& module, const std::string& entry) {
  const llvm::Function* function = module.getFunction(entry);
  if (!function) return 0;
  std::uint64_t bytes = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(*function))
    if (const auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (llvm::Optional<llvm::TypeSize> size =
              alloca->getAllocationSizeInBits(module.getDataLayout()))
        bytes += size->getFixedSize() / 8;
  return bytes;
}

}  // namespace

struct JitModule::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

JitModule::JitModule(std::span<const std::byte> bitcode, const std::vector<KernelInfo>& kernels)
    : impl_(std::make_unique<Impl>()) {
  initialize_native_target();
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module = parse(bitcode, *context);

  llvm::Expected<llvm::orc::JITTargetMachineBuilder> target =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!target) fail("cannot describe the host CPU: " + llvm::toString(target.takeError()));
  target->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  const llvm::Triple host = target->getTargetTriple();
  const llvm::Triple triple(module->getTargetTriple());
  if (!module->getTargetTriple().empty() && triple.getArch() != host.getArch())
    fail("the module is for " + module->getTargetTriple() + ", not this CPU (" + host.str() +
         "); compile it for the llvm-bitcode target");
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = target->createTargetMachine();
  if (!machine)
    fail("no code generator for " + host.str() + ": " + llvm::toString(machine.takeError()));
  module->setTargetTriple(host.str());
  module->setDataLayout((*machine)->createDataLayout());

  kernels_ = prepare_kernels(*module, kernels);
  optimize(*module, **machine);
  dump_if_asked(*module);
  for (PreparedKernel& kernel : kernels_)
    kernel.private_bytes = stack_allocation_bytes(*module, kernel.entry);
  if (const std::string missing = unresolved_symbols(*module); !missing.empty())
    fail("the kernels call functions that neither they nor the host device library define: " +
         missing +
         " (the compiler links the library into llvm-bitcode output; see its "
         "`host_device_library` option)");
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*module, &stream))
    fail("internal: the prepared module is invalid: " + stream.str());

  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*target)).create();
  if (!jit) fail("cannot create the JIT: " + llvm::toString(jit.takeError()));
  impl_->jit = std::move(*jit);
  llvm::orc::JITDylib& library = impl_->jit->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      impl_->jit->getDataLayout().getGlobalPrefix());
  if (!process) fail("cannot search the process's symbols: " + llvm::toString(process.takeError()));
  library.addGenerator(std::move(*process));
  llvm::orc::SymbolMap runtime;
  for (const auto& [name, address] :
       {std::pair{"__plexus_barrier", FiberGroup::barrier_function()},
        std::pair{"__plexus_sub_group_barrier", FiberGroup::sub_group_barrier_function()}})
    runtime[impl_->jit->mangleAndIntern(name)] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address),
                                 llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  if (llvm::Error error = library.define(llvm::orc::absoluteSymbols(std::move(runtime))))
    fail("cannot define the runtime's symbols: " + llvm::toString(std::move(error)));
  if (llvm::Error error = impl_->jit->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    fail("the JIT refused the module: " + llvm::toString(std::move(error)));
  for (const PreparedKernel& kernel : kernels_) {
    llvm::Expected<llvm::orc::ExecutorAddr> address = impl_->jit->lookup(kernel.entry);
    if (!address)
      fail("kernel '" + kernel.name + "' did not compile: " + llvm::toString(address.takeError()));
    entries_.push_back(address->toPtr<void*>());
  }
}

JitModule::~JitModule() = default;

}  // namespace plexus::host
