#!/usr/bin/env bash
# Fuzzing as a habit: seed every target's corpus from ../shared/corpus and the
# checked-in fixtures, run each target for SECONDS, and keep every crash as a
# regression input under tests/data/<area>/fuzz/ (read by the tests of that area).
#
#   fuzz/seed.sh SECONDS [TARGET...]     (default: every target in fuzz/Cargo.toml)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); the nightly features it uses are
# enabled with RUSTC_BOOTSTRAP=1. Runs under `nice`; prints, per target, the
# seconds run, executions and the coverage libFuzzer reported.
set -euo pipefail

seconds=${1:?usage: fuzz/seed.sh SECONDS [TARGET...]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
fuzz="$root/fuzz"
shared="$root/../shared/corpus"
max_seed_bytes=${MAX_SEED_BYTES:-262144}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' "$fuzz/Cargo.toml" | grep -v '^gpukit-fuzz$')
fi

# Seed files for a target: "DIR|find-name-pattern" pairs.
seeds_for() {
    case $1 in
        visa_read | visa_roundtrip)
            echo "$shared/intel|*.isa" "$shared/intel-legacy|*.isa" "$root/tests/data/visa|*.isa" "$root/tests/data/hostile|*.isa" ;;
        visa_text | visa_text_write)
            echo "$shared/intel|*.visaasm" "$shared/intel-legacy|*.visaasm" "$shared/intel-sid|*.visaasm" "$root/tests/data/visa|*.visaasm" ;;
        iga_json | iga_lenient)
            echo "$shared/iga|*.json" "$shared/intel|*.json" "$root/crates/iga/tests|*.json" ;;
        iga_text)
            echo "$shared/intel|*.asm" "$root/crates/iga/tests|*.asm" ;;
        amd_clo)
            echo "$shared/amd|*.clo" "$root/tests/data/hostile|*.clo" "$root/crates/amd/tests|*.clo" ;;
        amd_cl2)
            echo "$shared/amd|*.clo" "$shared/amd|*.bin" "$root/crates/amd/tests|*.bin" ;;
        amd_metadata)
            echo "$shared/amd|*.txt" "$root/crates/amd/tests|*.txt" ;;
        amd_link)
            echo "$root/crates/amd/tests|*.il" "$root/tests/cli|*.il" ;;
        amd_args)
            echo "$shared/amd|*.cl" "$shared/intel|*.cl" "$root/crates/amd/tests|*.cl" "$root/tests/data/hostile|*.cl" ;;
        intel_read)
            echo "$root/tests/data/intel|*.bin" ;;
        intel_asm_dump)
            echo "$shared/intel|*.asm" "$shared/intel-sid|*.asm" ;;
        *) echo "" ;;
    esac
}

area_of() {
    case $1 in visa_*) echo visa ;; iga_*) echo iga ;; amd_*) echo amd ;; intel_*) echo intel ;; *) echo misc ;; esac
}

summary=()
for t in "${targets[@]}"; do
    corpus="$fuzz/corpus/$t"
    artifacts="$fuzz/artifacts/$t"
    regressions="$root/tests/data/$(area_of "$t")/fuzz"
    mkdir -p "$corpus" "$artifacts"
    # Seeds: fixtures, shared corpus, and every regression input of the area.
    for pair in $(seeds_for "$t") "$regressions|*"; do
        dir=${pair%%|*}
        pattern=${pair#*|}
        [ -d "$dir" ] || continue
        find "$dir" -type f -name "$pattern" -size -"${max_seed_bytes}"c -print0 |
            while IFS= read -r -d '' f; do
                cp -n "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16)" 2>/dev/null || true
            done
    done
    log="$fuzz/artifacts/$t.log"
    echo "== $t: $(ls "$corpus" | wc -l) corpus files, ${seconds}s" >&2
    status=0
    (cd "$fuzz" && RUSTC_BOOTSTRAP=1 nice -n 10 cargo fuzz run "$t" "$corpus" -- \
        -max_total_time="$seconds" -artifact_prefix="$artifacts/" -print_final_stats=1 \
        -rss_limit_mb=2048 -timeout=20 -report_slow_units=30) >"$log" 2>&1 || status=$?
    # Keep every crash, leak, OOM or timeout as a regression input of its area.
    found=0
    for a in "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/oom-* "$artifacts"/timeout-* "$artifacts"/slow-unit-*; do
        [ -f "$a" ] || continue
        mkdir -p "$regressions"
        # Moved, so the next run reports only what it finds itself.
        mv "$a" "$regressions/$t-$(basename "$a")"
        found=$((found + 1))
    done
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    line="$t: ${seconds}s, exit $status, execs ${execs:-?}, last: ${last:-none}, new regression inputs: $found"
    echo "$line" >&2
    summary+=("$line")
done
printf '%s\n' "${summary[@]}"
