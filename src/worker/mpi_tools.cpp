// SPDX-License-Identifier: BSD-3-Clause
#include "worker/mpi_tools.hpp"

#include <cstdlib>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace pico {
namespace {

// RAII for a control-variable handle.
class CvarHandle {
 public:
  explicit CvarHandle(int index) {
    int count = 0;
    if (MPI_T_cvar_handle_alloc(index, nullptr, &handle_, &count) != MPI_SUCCESS) handle_ = MPI_T_CVAR_HANDLE_NULL;
  }
  ~CvarHandle() {
    if (handle_ != MPI_T_CVAR_HANDLE_NULL) MPI_T_cvar_handle_free(&handle_);
  }
  CvarHandle(const CvarHandle&) = delete;
  CvarHandle& operator=(const CvarHandle&) = delete;
  MPI_T_cvar_handle get() const { return handle_; }

 private:
  MPI_T_cvar_handle handle_ = MPI_T_CVAR_HANDLE_NULL;
};

struct EnumItem {
  int value;
  std::string name;
};

// The first item of an MPI_T enumeration that `match` accepts.
template <class Match>
std::optional<EnumItem> find_enum_item(MPI_T_enum enumtype, Match match) {
  int items = 0;
  char enum_name[256];
  int enum_name_len = sizeof(enum_name);
  if (MPI_T_enum_get_info(enumtype, &items, enum_name, &enum_name_len) != MPI_SUCCESS) return std::nullopt;
  for (int i = 0; i < items; ++i) {
    EnumItem item{0, std::string(256, '\0')};
    int len = static_cast<int>(item.name.size());
    if (MPI_T_enum_get_item(enumtype, i, &item.value, item.name.data(), &len) != MPI_SUCCESS) continue;
    item.name.resize(item.name.find('\0'));
    if (match(item)) return item;
  }
  return std::nullopt;
}

bool is_integer_type(MPI_Datatype t) {
  return t == MPI_INT || t == MPI_UNSIGNED || t == MPI_UNSIGNED_LONG || t == MPI_UNSIGNED_LONG_LONG ||
         t == MPI_COUNT;
}

}  // namespace

std::map<std::string, std::map<int, std::string>> enumerated_variables(const std::string& prefix) {
  std::map<std::string, std::map<int, std::string>> out;
  int count = 0;
  if (MPI_T_cvar_get_num(&count) != MPI_SUCCESS) return out;
  for (int index = 0; index < count; ++index) {
    char name[256], desc[1024];
    int name_len = sizeof(name), desc_len = sizeof(desc), verbosity = 0, binding = 0, scope = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
    if (MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len, &binding,
                            &scope) != MPI_SUCCESS ||
        enumtype == MPI_T_ENUM_NULL || std::string_view(name).rfind(prefix, 0) != 0)
      continue;
    auto& items = out[name];
    find_enum_item(enumtype, [&](const EnumItem& item) {
      items[item.value] = item.name;
      return false;  // visit them all
    });
  }
  return out;
}

MpiToolsSession::MpiToolsSession() {
  int provided = 0;
  ok_ = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
}

MpiToolsSession::~MpiToolsSession() {
  if (ok_) MPI_T_finalize();
}

std::optional<ControlVariables::Info> ControlVariables::lookup(const std::string& name) {
  if (auto it = cache_.find(name); it != cache_.end()) return it->second;
  int index = -1;
  if (MPI_T_cvar_get_index(name.c_str(), &index) != MPI_SUCCESS) return std::nullopt;
  char cvar_name[256], desc[1024];
  int name_len = sizeof(cvar_name), desc_len = sizeof(desc), verbosity = 0, binding = 0, scope = 0;
  Info info;
  info.index = index;
  if (MPI_T_cvar_get_info(index, cvar_name, &name_len, &verbosity, &info.type, &info.enumtype, desc, &desc_len,
                          &binding, &scope) != MPI_SUCCESS)
    return std::nullopt;
  return cache_[name] = info;
}

std::string ControlVariables::write(const std::string& name, const std::string& value) {
  // Test seam: lets the suite exercise the environment-variable fallback on a library that allows writing.
  if (const char* refuse = std::getenv("PICO_TEST_REFUSE_MPI_T"); refuse != nullptr && std::string_view(refuse) == "1")
    return "refused (PICO_TEST_REFUSE_MPI_T=1)";
  const auto info = lookup(name);
  if (!info) return fmt::format("the library has no control variable '{}'", name);
  if (!is_integer_type(info->type)) return fmt::format("'{}' is not an integer control variable", name);
  long long number = 0;
  char* end = nullptr;
  number = std::strtoll(value.c_str(), &end, 10);
  if (end == value.c_str() || *end != '\0') {
    if (info->enumtype == MPI_T_ENUM_NULL) return fmt::format("'{}' is not a number", value);
    const auto item = find_enum_item(info->enumtype, [&](const EnumItem& i) { return i.name == value; });
    if (!item) return fmt::format("'{}' is not a value of '{}'", value, name);
    number = item->value;
  }
  CvarHandle handle(info->index);
  if (handle.get() == MPI_T_CVAR_HANDLE_NULL) return fmt::format("cannot allocate a handle for '{}'", name);
  int rc = MPI_SUCCESS;
  if (info->type == MPI_INT) {
    int v = static_cast<int>(number);
    rc = MPI_T_cvar_write(handle.get(), &v);
  } else if (info->type == MPI_UNSIGNED) {
    unsigned v = static_cast<unsigned>(number);
    rc = MPI_T_cvar_write(handle.get(), &v);
  } else if (info->type == MPI_UNSIGNED_LONG) {
    unsigned long v = static_cast<unsigned long>(number);
    rc = MPI_T_cvar_write(handle.get(), &v);
  } else {
    unsigned long long v = static_cast<unsigned long long>(number);
    rc = MPI_T_cvar_write(handle.get(), &v);
  }
  if (rc != MPI_SUCCESS) return fmt::format("MPI_T_cvar_write('{}') returned error {}", name, rc);
  return "";
}

std::optional<std::string> ControlVariables::read(const std::string& name) {
  const auto info = lookup(name);
  if (!info) return std::nullopt;
  CvarHandle handle(info->index);
  if (handle.get() == MPI_T_CVAR_HANDLE_NULL) return std::nullopt;
  if (info->type == MPI_CHAR) {
    std::vector<char> buf(4096, '\0');
    if (MPI_T_cvar_read(handle.get(), buf.data()) != MPI_SUCCESS) return std::nullopt;
    return std::string(buf.data());
  }
  if (info->type == MPI_C_BOOL) {  // Open MPI's boolean MCA variables (coll_han_use_simple_*): 1 or 0, as set
    bool v = false;
    if (MPI_T_cvar_read(handle.get(), &v) != MPI_SUCCESS) return std::nullopt;
    return v ? "1" : "0";
  }
  if (!is_integer_type(info->type)) return std::nullopt;
  long long value = 0;
  int rc = MPI_SUCCESS;
  if (info->type == MPI_INT) {
    int v = 0;
    rc = MPI_T_cvar_read(handle.get(), &v);
    value = v;
  } else if (info->type == MPI_UNSIGNED) {
    unsigned v = 0;
    rc = MPI_T_cvar_read(handle.get(), &v);
    value = v;
  } else {
    unsigned long long v = 0;  // unsigned long, unsigned long long and MPI_Count all fit
    rc = MPI_T_cvar_read(handle.get(), &v);
    value = static_cast<long long>(v);
  }
  if (rc != MPI_SUCCESS) return std::nullopt;
  return std::to_string(value);
}

std::optional<std::string> ControlVariables::read_enum_name(const std::string& name) {
  const auto info = lookup(name);
  if (!info || info->enumtype == MPI_T_ENUM_NULL) return std::nullopt;
  const auto v = read(name);
  if (!v) return std::nullopt;
  const long long number = std::stoll(*v);
  const auto item = find_enum_item(info->enumtype, [&](const EnumItem& i) { return i.value == number; });
  if (!item) return std::nullopt;
  return item->name;
}

}  // namespace pico
