# lit configuration of fa-mlir (after mlir/examples/standalone).
import glob
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "FA-MLIR"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".c", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fa_obj_root, "test")

path = [config.fa_tools_dir, config.fa_test_bin_dir, config.llvm_tools_dir]
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", "")])

config.substitutions.append(("%fa_lib_dir", config.fa_lib_dir))
config.substitutions.append(("%fa_src_root", config.fa_src_root))
config.substitutions.append(("%fa_obj_root", config.fa_obj_root))
config.substitutions.append(("%fa_version", config.fa_version))  # project() in CMake
config.substitutions.append(("%fa_plugin", os.path.join(config.fa_lib_dir, "FaPlugin.so")))
config.substitutions.append(("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%fake_gpu_notma", os.path.join(config.fa_test_bin_dir, "fake-gpu-driver-notma.so")))
config.substitutions.append(("%fake_gpu_old", os.path.join(config.fa_test_bin_dir, "fake-gpu-driver-old.so")))
config.substitutions.append(("%fake_gpu", os.path.join(config.fa_test_bin_dir, "fake-gpu-driver.so")))
config.substitutions.append(("%gpu_models", os.path.join(config.fa_obj_root, "test", "gpu-models")))
config.substitutions.append(("%examples", os.path.join(config.fa_src_root, "examples")))

# GPU-only tests carry REQUIRES: cuda-gpu; they run one at a time
# (test/Runtime/GPU/lit.local.cfg says why).
lit_config.parallelism_groups["cuda-gpu"] = 1
if shutil.which("nvidia-smi") and os.path.exists("/dev/nvidia0"):
    config.available_features.add("cuda-gpu")
    # Hopper (compute capability 9.0) runs the sm_90a models: REQUIRES: cuda-hopper.
    try:
        cap = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        if cap and cap[0].strip() == "9.0":
            config.available_features.add("cuda-hopper")
    except (OSError, subprocess.SubprocessError):
        pass
sanitizer = shutil.which("compute-sanitizer") or next(
    iter(sorted(glob.glob("/usr/local/cuda*/bin/compute-sanitizer"))), None)
if sanitizer:
    config.available_features.add("compute-sanitizer")
    config.substitutions.append(("%compute_sanitizer", sanitizer))
if shutil.which("ptxas"):
    config.available_features.add("ptxas")
# A SASS disassembler (nvdisasm, e.g. from PyPI's nvidia-cuda-nvdisasm, or the CUDA
# toolkit's cuobjdump) lets tests read the machine code ptxas makes: REQUIRES: sass.
if shutil.which("nvdisasm"):
    config.available_features.add("sass")
    config.substitutions.append(("%sass", "nvdisasm -c"))
elif shutil.which("cuobjdump"):
    config.available_features.add("sass")
    config.substitutions.append(("%sass", "cuobjdump --dump-sass"))
