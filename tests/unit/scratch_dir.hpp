// A fresh directory under $TMPDIR for a unit test, removed with its scope.
#pragma once
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/temp_file.hpp"

namespace adrprobe::testing {

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string name = temp_dir() + "/adrprobe-unit-XXXXXX";
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // Writes `content` to `name` under the directory (its folders made first); its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::filesystem::create_directories((path / name).parent_path());
    std::ofstream(path / name, std::ios::binary) << content;
    return (path / name).string();
  }
};

}  // namespace adrprobe::testing
