#!/usr/bin/env python3
"""HTA's side of the analysis benchmark: loads every JSON trace of DIR and runs the kernel breakdown and the
temporal breakdown, as a user does. Prints one JSON line: seconds, the peak RSS of this process and of its
largest worker (HTA parses ranks in a multiprocessing pool), in KiB.

    python3 bench_hta.py DIR
"""
import json
import logging
import resource
import sys
import time


def main():
    logging.disable(logging.WARNING)
    from hta.trace_analysis import TraceAnalysis

    t = time.perf_counter()
    analysis = TraceAnalysis(trace_dir=sys.argv[1])
    loaded = time.perf_counter() - t
    analysis.get_gpu_kernel_breakdown(visualize=False, num_kernels=10**9, duration_ratio=1.0)
    analysis.get_temporal_breakdown(visualize=False)
    seconds = time.perf_counter() - t
    print(json.dumps({
        "seconds": seconds,
        "load_seconds": loaded,
        "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "maxrss_children_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    }))


if __name__ == "__main__":
    main()
