#include "elf_check.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

namespace plexus::detail {

std::optional<std::string> elf_problem(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "cannot open the file for reading";
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);

  Elf64_Ehdr header{};
  if (size < sizeof header || !in.read(reinterpret_cast<char*>(&header), sizeof header)) {
    return "too short to be an ELF shared library (" + std::to_string(size) + " bytes)";
  }
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file (bad magic)";
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return "not a 64-bit little-endian ELF file";
  }
  if (header.e_type != ET_DYN) return "not a shared library (ELF type " +
                                      std::to_string(header.e_type) + ")";
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 ||
      header.e_shstrndx >= header.e_shnum) {
    return "corrupt ELF header (section table description is invalid)";
  }
  const std::uint64_t table_end =
      header.e_shoff + std::uint64_t{header.e_shnum} * sizeof(Elf64_Shdr);
  if (header.e_shoff > size || table_end > size) {
    return "truncated or corrupt: the section table ends at byte " + std::to_string(table_end) +
           " of a " + std::to_string(size) + "-byte file";
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  in.seekg(static_cast<std::streamoff>(header.e_shoff));
  if (!in.read(reinterpret_cast<char*>(sections.data()),
               static_cast<std::streamsize>(sections.size() * sizeof(Elf64_Shdr)))) {
    return "cannot read the section table";
  }
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const Elf64_Shdr& section = sections[i];
    if (section.sh_type == SHT_NOBITS || section.sh_type == SHT_NULL) continue;
    if (section.sh_offset > size || section.sh_size > size - section.sh_offset) {
      return "truncated or corrupt: section " + std::to_string(i) + " lies outside the file";
    }
  }
  return std::nullopt;
}

}  // namespace plexus::detail
