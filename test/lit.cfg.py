# -*- Python -*-
# lit configuration for Toast's FileCheck tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "TOAST"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "install"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.toast_obj_root, "test")

# Captured variables must not leak across CHECK-LABELs.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

llvm_config.use_default_substitutions()
config.substitutions.append(("%toast_src_root", config.toast_src_root))
config.substitutions.append(("%corpus", config.toast_corpus_dir))
config.substitutions.append(("%python", config.python_executable))

# Tests that read ../shared/corpus say `REQUIRES: corpus`. Without the
# corpus they are reported as unsupported (skipped); under CI it must exist.
if os.path.isdir(os.path.join(config.toast_corpus_dir, "models")):
    config.available_features.add("corpus")
elif os.environ.get("CI") == "true":
    lit_config.fatal("corpus not found at '%s' (required under CI=true)"
                     % config.toast_corpus_dir)
else:
    lit_config.note("corpus not found at '%s': corpus tests are skipped"
                    % config.toast_corpus_dir)

# algorithm=ilp needs CBC; without it the build still works (`cbc`).
if config.toast_have_cbc in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("cbc")

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.toast_tools_dir, config.llvm_tools_dir]
tools = ["toast-opt", "toast-models", "toast-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
