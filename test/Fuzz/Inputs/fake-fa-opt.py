#!/usr/bin/env python3
# A stand-in for fa-opt and mlir-opt in fuzz.test: echoes its input, and
# kills itself with SIGSEGV in the fusion stage when the input holds
# "crash_here", so that the fuzzer's classification and minimisation can be
# checked without a real bug.
import os
import signal
import sys

text = sys.stdin.read()
if "--fa-fuse-attention=explain" in sys.argv and "crash_here" in text:
    os.kill(os.getpid(), signal.SIGSEGV)
sys.stdout.write(text)
