#!/usr/bin/env python3
"""Channel-instructions per CPU second of `gpukit visa run` on the corpus kernels
(issue 24): reads the JSON report of tools/visa_run_oracle.py (`--json OUT`), whose
rows keep each launch's `visa run --json` statistics, and prints one line per kernel
that ran and a summary per release and device (median and range of the rate).
Launches shorter than --min-ms of CPU are listed but left out of the summary: their
rate is mostly the clock's resolution and the launch's fixed cost.

usage: bench/corpus_rate.py ORACLE.json [--min-ms 1]
"""
import argparse, json, statistics, sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report")
    ap.add_argument("--min-ms", type=float, default=1.0)
    a = ap.parse_args()
    report = json.load(open(a.report))
    for release, rows in report.items():
        rates = []
        print(f"{'release':16} {'file':26} {'kernel':26} {'chan-inst':>11} {'CPU ms':>8} {'chan-inst/CPU-s':>16}")
        for row in rows:
            stats = row.get("stats")
            if not stats:
                continue
            ns = stats.get("cpu_nanoseconds") or 0
            rate = stats.get("channel_instructions_per_cpu_second") or 0.0
            print(f"{release:16} {row['file']:26} {row['kernel']:26} {stats['channel_instructions']:11} "
                  f"{ns / 1e6:8.2f} {rate:16.3e}")
            if ns >= a.min_ms * 1e6:
                rates.append(rate)
        if rates:
            print(f"== {release}: {len(rates)} launches of at least {a.min_ms} ms CPU: median "
                  f"{statistics.median(rates):.3e}, range {min(rates):.3e} .. {max(rates):.3e} "
                  "channel-instructions per CPU second")
        else:
            print(f"== {release}: no launch of at least {a.min_ms} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
