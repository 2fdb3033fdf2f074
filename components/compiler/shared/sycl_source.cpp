#include "sycl_source.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

#include <cctype>
#include <set>

#include "plexus/sycl_names.hpp"
#include "kernel_local_variables.hpp"
#include "sycl_work_group_scratch.hpp"
#include "sycl_work_group_static.hpp"

namespace plexus::compiler_shared {

namespace {

constexpr std::string_view marker = "__plexus_sycl_kernel";
constexpr const char* entries_file = "__plexus_sycl_entries.hpp";

struct Token {
  enum Kind { identifier, string, punct, other } kind = other;
  std::string text;
  std::string file;
  unsigned line = 0;
};

// The tokens of preprocessed C++ with each one's presumed file and line (from the line
// markers "# N \"file\" flags"); #pragma lines are skipped.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::string file;
  unsigned line = 1;
  std::size_t i = 0;
  bool line_start = true;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (line_start && c == '#') {
      std::size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view directive = text.substr(i + 1, end - i - 1);
      // "# 12 "file" 2" or "#line 12 "file""
      std::size_t p = directive.find_first_not_of(' ');
      if (p != std::string_view::npos && directive.substr(p, 4) == "line") p += 4;
      p = directive.find_first_not_of(' ', p);
      if (p != std::string_view::npos && std::isdigit(static_cast<unsigned char>(directive[p]))) {
        unsigned number = 0;
        while (p < directive.size() && std::isdigit(static_cast<unsigned char>(directive[p])))
          number = number * 10 + static_cast<unsigned>(directive[p++] - '0');
        const std::size_t quote = directive.find('"', p);
        if (quote != std::string_view::npos) {
          std::string name;
          for (std::size_t q = quote + 1; q < directive.size() && directive[q] != '"'; ++q) {
            if (directive[q] == '\\' && q + 1 < directive.size()) ++q;
            name += directive[q];
          }
          file = std::move(name);
        }
        line = number - 1;  // the next line has `number`
      }
      i = end;
      continue;
    }
    line_start = false;
    Token token;
    token.file = file;
    token.line = line;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = i;
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
        ++end;
      token.kind = Token::identifier;
      token.text = std::string(text.substr(i, end - i));
      i = end;
    } else if (c == '"' || c == '\'') {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] != c && text[end] != '\n') {
        if (text[end] == '\\') ++end;
        ++end;
      }
      token.kind = c == '"' ? Token::string : Token::other;
      // The literal's content, escapes resolved only for \" and \\ (enough for names).
      for (std::size_t q = i + 1; q < end && q < text.size(); ++q) {
        if (text[q] == '\\' && q + 1 < end) ++q;
        token.text += text[q];
      }
      i = end + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '.' || text[end] == '_' || text[end] == '\''))
        ++end;
      token.kind = Token::other;
      token.text = std::string(text.substr(i, end - i));
      i = end;
    } else if (c == ':' && i + 1 < text.size() && text[i + 1] == ':') {
      token.kind = Token::punct;
      token.text = "::";
      i += 2;
    } else {
      token.kind = Token::punct;
      token.text = std::string(1, c);
      ++i;
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

bool is(const std::vector<Token>& tokens, std::size_t i, std::string_view text) {
  return i < tokens.size() && tokens[i].text == text && tokens[i].kind != Token::string;
}

// The index after the group that opens at tokens[i] ("(", "[", "{" or "<"), or tokens.size().
std::size_t skip_group(const std::vector<Token>& tokens, std::size_t i) {
  int depth = 0;
  for (; i < tokens.size(); ++i) {
    if (tokens[i].kind != Token::punct) continue;
    const std::string& t = tokens[i].text;
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") {
      if (--depth == 0) return i + 1;
    }
  }
  return tokens.size();
}

// Skips `__attribute__((...))` and `[[...]]` groups starting at i.
std::size_t skip_attributes(const std::vector<Token>& tokens, std::size_t i) {
  for (;;) {
    if (is(tokens, i, "__attribute__") || is(tokens, i, "__declspec"))
      i = skip_group(tokens, i + 1);
    else if (is(tokens, i, "[") && is(tokens, i + 1, "["))
      i = skip_group(tokens, i);
    else
      return i;
  }
}

// The parameters of the list whose "(" is at tokens[open]: top-level commas + 1, or 0 for
// "()" and "(void)"; `close` gets the index of the ")".
int count_parameters(const std::vector<Token>& tokens, std::size_t open, std::size_t& close) {
  int depth = 0, angle = 0, commas = 0;
  std::size_t i = open;
  for (; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind != Token::punct) continue;
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    else if (t.text == ")" || t.text == "]" || t.text == "}") {
      if (--depth == 0) break;
    } else if (depth == 1 && t.text == "<") ++angle;
    else if (depth == 1 && t.text == ">" && angle > 0) --angle;
    else if (depth == 1 && angle == 0 && t.text == ",") ++commas;
  }
  close = i;
  if (close == open + 1) return 0;
  if (close == open + 2 && is(tokens, open + 1, "void")) return 0;
  return commas + 1;
}

std::string location_of(const Token& token, const SyclSource::ShownName& shown) {
  return shown(token.file) + ":" + std::to_string(token.line);
}

// `text` as a C string literal (quotes and backslashes escaped).
std::string c_literal(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A registered name without template arguments at its end and without a leading "::".
std::string base_of(std::string_view name) {
  std::string text(name);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (!text.empty() && text.back() == '>') {
    int depth = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
      if (text[i] == '>') ++depth;
      if (text[i] == '<' && --depth == 0) {
        text.erase(i);
        break;
      }
    }
  }
  std::string compact;
  for (const char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
  if (compact.starts_with("::")) compact.erase(0, 2);
  return compact;
}

struct Entry {
  std::string symbol;  // the kernel's name once finish() ran
  std::string callee;  // the expression that names the function at global scope
  const SyclKernelDeclaration* kernel = nullptr;
};

std::string entry_text(const Entry& entry) {
  const SyclKernelDeclaration& k = *entry.kernel;
  const std::string type = "decltype(" + entry.callee + ")";
  const std::string what = "SYCL kernel '" + entry.callee + "'";
  std::string text = "#line " + std::to_string(k.line) + " " + c_literal(k.file) + "\n";
  text += "__kernel void " + std::string(SyclSource::entry_prefix) + entry.symbol + "(";
  for (int i = 0; i < k.parameters; ++i)
    text += std::string(i ? ", " : "") + "__plexus_sycl::entry_param_t<" + type + ", " +
            std::to_string(i) + "> p" + std::to_string(i);
  text += ") { static_assert(__plexus_sycl::signature<" + type + ">::arity == " +
          std::to_string(k.parameters) + ", " + c_literal(what + " has overloads or parameters the " + "entry point generator miscounted") +
          "); static_assert(__plexus_sycl::signature<" + type + ">::returns_void, " +
          c_literal(what + " must return void") + "); ";
  for (int i = 0; i < k.parameters; ++i)
    text += "static_assert(__plexus_sycl::param_of<" + type + ", " + std::to_string(i) +
            ">::valid, " +
            c_literal("parameter " + std::to_string(i + 1) + " of " + what +
                   " must be a pointer, a scalar, a trivially copyable struct or a "
                   "work_group_memory") +
            "); ";
  text += entry.callee + "(";
  for (int i = 0; i < k.parameters; ++i)
    text += std::string(i ? ", " : "") + "__plexus_sycl::param_of<" + type + ", " +
            std::to_string(i) + ">::pass(p" + std::to_string(i) + ")";
  text += "); }\n";
  return text;
}

}  // namespace

CompileRequest SyclSource::with_headers(const CompileRequest& request) {
  CompileRequest lowered = request;
  for (const SyclHeaderFile& header : sycl_header_files())
    lowered.includes.push_back({std::string(header_dir) + "/" + header.path, header.content});
  return lowered;
}

std::vector<SyclKernelDeclaration> SyclSource::scan(std::string_view preprocessed,
                                                    const ShownName& shown,
                                                    DiagnosticLog& log) {
  const std::vector<Token> tokens = tokenize(preprocessed);
  std::vector<SyclKernelDeclaration> kernels;
  std::set<std::pair<std::string, std::string>> seen;
  struct Scope {
    enum Kind { named, extern_c, other } kind;
    std::string name;
  };
  std::vector<Scope> scopes;
  bool pending_extern_c = false, pending_template = false;
  std::string pending_namespace;
  bool in_namespace_head = false;
  const auto scope_name = [&] {
    std::string name;
    for (const Scope& s : scopes)
      if (s.kind == Scope::named) name += (name.empty() ? "" : "::") + s.name;
    return name;
  };
  const auto in_extern_c = [&] {
    for (const Scope& s : scopes)
      if (s.kind == Scope::extern_c) return true;
    return false;
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind == Token::identifier && t.text == "namespace") {
      in_namespace_head = true;
      pending_namespace.clear();
      continue;
    }
    if (in_namespace_head) {
      if (t.kind == Token::identifier) {
        pending_namespace += t.text;
        continue;
      }
      if (is(tokens, i, "::")) {
        pending_namespace += "::";
        continue;
      }
      in_namespace_head = false;
      if (is(tokens, i, "{")) {
        // An anonymous namespace's functions cannot be kernels: give it a name no one has.
        scopes.push_back({Scope::named, pending_namespace.empty() ? "(anonymous)" : pending_namespace});
        continue;
      }
      // namespace alias "namespace a = b;": nothing to do
    }
    if (t.kind == Token::identifier && t.text == "extern" && i + 1 < tokens.size() &&
        tokens[i + 1].kind == Token::string && tokens[i + 1].text == "C") {
      if (is(tokens, i + 2, "{")) {
        scopes.push_back({Scope::extern_c, {}});
        i += 2;
      } else {
        pending_extern_c = true;
        i += 1;
      }
      continue;
    }
    if (t.kind == Token::identifier && t.text == "template") {
      pending_template = true;
      continue;
    }
    if (is(tokens, i, "{")) {
      scopes.push_back({Scope::other, {}});
      pending_extern_c = pending_template = false;
      continue;
    }
    if (is(tokens, i, "}")) {
      if (!scopes.empty()) scopes.pop_back();
      pending_extern_c = pending_template = false;
      continue;
    }
    if (is(tokens, i, ";")) {
      pending_extern_c = pending_template = false;
      continue;
    }
    // __attribute__ ( ( annotate ( "__plexus_sycl_kernel" , "PROPERTY" ) ) )
    if (!(t.kind == Token::identifier && t.text == "__attribute__" && is(tokens, i + 1, "(") &&
          is(tokens, i + 2, "(") && is(tokens, i + 3, "annotate") && is(tokens, i + 4, "(") &&
          i + 5 < tokens.size() && tokens[i + 5].kind == Token::string &&
          tokens[i + 5].text == marker))
      continue;
    const Token& where = tokens[i];
    const std::string property =
        i + 7 < tokens.size() && tokens[i + 7].kind == Token::string ? tokens[i + 7].text : "";
    SyclKernelDeclaration kernel;
    kernel.file = where.file;
    kernel.line = where.line;
    kernel.extern_c = pending_extern_c || in_extern_c();
    kernel.is_template = pending_template;
    std::string compact;
    for (const char c : property)
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    if (compact.find("single_task_kernel") != std::string::npos) {
      kernel.single_task = true;
    } else if (compact.find("nd_range_kernel<") == std::string::npos) {
      log.error(location_of(where, shown) + ": the kernel property '" + property +
                "' is neither sycl::ext::oneapi::experimental::nd_range_kernel<N> nor "
                "single_task_kernel");
      return {};
    }
    // The declarator: the identifier before the first "(" after the attributes.
    std::size_t j = skip_attributes(tokens, i);
    std::size_t open = tokens.size();
    std::string qualifier;
    for (; j < tokens.size(); ++j) {
      if (is(tokens, j, "(")) {
        open = j;
        break;
      }
      if (is(tokens, j, "__attribute__") || (is(tokens, j, "[") && is(tokens, j + 1, "["))) {
        j = skip_attributes(tokens, j) - 1;
        continue;
      }
      if (is(tokens, j, ";") || is(tokens, j, "{") || is(tokens, j, "}")) break;
    }
    if (open == tokens.size() || open == 0 || tokens[open - 1].kind != Token::identifier) {
      log.error(location_of(where, shown) +
                ": SYCL_EXT_ONEAPI_FUNCTION_PROPERTY is not followed by a function declaration");
      return {};
    }
    kernel.name = tokens[open - 1].text;
    // "ns::f(" defined outside its namespace: the qualifier is part of the scope.
    for (std::size_t q = open - 1; q >= 2 && is(tokens, q - 1, "::") &&
                                   tokens[q - 2].kind == Token::identifier;
         q -= 2)
      qualifier = tokens[q - 2].text + (qualifier.empty() ? "" : "::" + qualifier);
    kernel.scope = scope_name();
    if (!qualifier.empty()) kernel.scope += (kernel.scope.empty() ? "" : "::") + qualifier;
    std::size_t close = open;
    kernel.parameters = count_parameters(tokens, open, close);
    i = close;
    if (seen.insert({kernel.scope, kernel.name}).second) kernels.push_back(std::move(kernel));
  }
  return kernels;
}

std::optional<CompileRequest> SyclSource::lower(const CompileRequest& request,
                                                std::string_view preprocessed,
                                                const ShownName& shown, DiagnosticLog& log) {
  const std::vector<SyclKernelDeclaration> kernels = scan(preprocessed, shown, log);
  if (log.has_errors()) return std::nullopt;
  std::vector<Entry> entries;
  for (const SyclKernelDeclaration& kernel : kernels) {
    if (!kernel.extern_c || kernel.is_template) continue;
    entries.push_back({kernel.name,
                       "::" + (kernel.scope.empty() ? "" : kernel.scope + "::") + kernel.name,
                       &kernel});
  }
  for (const std::string& name : request.registered_names) {
    const std::string base = base_of(name);
    const SyclKernelDeclaration* found = nullptr;
    for (const SyclKernelDeclaration& kernel : kernels) {
      const std::string full = kernel.scope.empty() ? kernel.name : kernel.scope + "::" + kernel.name;
      if (full == base || (base.find("::") == std::string::npos && kernel.name == base) ||
          full.ends_with("::" + base)) {
        found = &kernel;
        break;
      }
    }
    if (!found) {
      log.error("the registered name '" + name +
                "' names no free-function kernel (a function declared with "
                "SYCL_EXT_ONEAPI_FUNCTION_PROPERTY) of the source");
      return std::nullopt;
    }
    std::string callee = name;
    if (base.find("::") == std::string::npos && !found->scope.empty())
      callee = found->scope + "::" + name;
    if (!callee.starts_with("::")) callee = "::" + callee;
    entries.push_back({registered_kernel_symbol(name), callee, found});
  }

  CompileRequest lowered = request;
  std::string text = "// Entry points of the SYCL free-function kernels (generated by Plexus).\n"
                     "#include <sycl/plexus/entry.hpp>\n";
  for (const Entry& entry : entries) text += entry_text(entry);
  lowered.includes.push_back({std::string(header_dir) + "/" + entries_file, std::move(text)});
  if (!lowered.source.empty() && lowered.source.back() != '\n') lowered.source += '\n';
  lowered.source += std::string("#include <") + entries_file + ">\n";
  return lowered;
}

bool SyclSource::finish(llvm::Module& module, DiagnosticLog& log) {
  const std::string prefix = entry_prefix;
  std::vector<llvm::Function*> entries;
  for (llvm::Function& function : module)
    if (function.getName().startswith(prefix)) entries.push_back(&function);
  for (llvm::Function* entry : entries) {
    const std::string target = entry->getName().substr(prefix.size()).str();
    if (llvm::Function* user = module.getFunction(target)) {
      user->setName("__plexus_sycl_impl__" + target);
      if (!user->isDeclaration()) user->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
    entry->setName(target);
  }
  // C++ for OpenCL mangles printf ("_Z6printfPU3AS2Kcz", ...); OpenCL's is plain `printf`.
  for (llvm::Function& function : llvm::make_early_inc_range(module)) {
    const llvm::StringRef name = function.getName();
    if (!function.isDeclaration() || !name.startswith("_Z6printfPU") || !name.endswith("Kcz"))
      continue;
    if (llvm::Function* plain = module.getFunction("printf")) {
      function.replaceAllUsesWith(plain);
      function.eraseFromParent();
    } else {
      function.setName("printf");
    }
  }
  // The annotations SYCL_EXT_ONEAPI_FUNCTION_PROPERTY leaves (the SPIR-V translator would
  // keep them as decorations).
  if (llvm::GlobalVariable* annotations = module.getGlobalVariable("llvm.global.annotations")) {
    std::set<llvm::GlobalVariable*> strings;
    for (llvm::Value* operand : annotations->operands())
      if (auto* array = llvm::dyn_cast<llvm::ConstantArray>(operand))
        for (llvm::Value* element : array->operands())
          if (auto* entry = llvm::dyn_cast<llvm::ConstantStruct>(element))
            for (llvm::Value* field : entry->operands())
              if (auto* global = llvm::dyn_cast<llvm::GlobalVariable>(field->stripPointerCasts()))
                strings.insert(global);
    annotations->eraseFromParent();
    for (llvm::GlobalVariable* global : strings) {
      global->removeDeadConstantUsers();  // the casts the annotations held
      if (global->use_empty() && global->hasLocalLinkage()) global->eraseFromParent();
    }
  }
  if (!move_work_group_statics(module, log)) return false;
  give_kernels_work_group_scratch(module);
  give_kernels_their_locals(module);
  return true;
}

}  // namespace plexus::compiler_shared
