#!/usr/bin/env python3
"""Serves a GGUF with llama.cpp's own HTTP server (xllamacpp) on 127.0.0.1, continuous batching.
Usage: serve.py MODEL PORT [SLOTS THREADS CTX_PER_SLOT]. Prints "ready" once /health answers; runs
until killed. Each slot holds CTX_PER_SLOT tokens (512 by default): a multi-turn session must fit
in one."""
import sys
import time
import urllib.request

import xllamacpp


def main():
    model, port = sys.argv[1], int(sys.argv[2])
    slots = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    ctx = int(sys.argv[5]) if len(sys.argv) > 5 else 512
    p = xllamacpp.CommonParams()
    p.model.path = model
    p.hostnames = ["127.0.0.1"]
    p.port = port
    p.n_parallel = slots
    p.cont_batching = True
    p.n_ctx = ctx * slots
    p.cpuparams.n_threads = threads
    p.cpuparams_batch.n_threads = threads
    p.endpoint_metrics = True
    server = xllamacpp.Server(p)
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as r:
                if r.status == 200:
                    break
        except Exception:
            time.sleep(0.1)
    print("ready", flush=True)
    while True:
        time.sleep(3600)
    del server


if __name__ == "__main__":
    main()
