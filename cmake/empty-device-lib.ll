; An empty AMDGPU bitcode module: stands in for a ROCm device library that
; fa-to-rocdl's kernels never call (fa-gpu-check-calls makes sure of that).
target triple = "amdgcn-amd-amdhsa"
