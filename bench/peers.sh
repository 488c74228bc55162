#!/usr/bin/env bash
# gpukit against the vendor tools on the same inputs, in one run: each round runs
# gpukit and the peer over the whole input set back to back (the order alternating
# between rounds), and the medians over the rounds give the ratio. Times are CPU
# time (user + sys of the process and its children, from /usr/bin/time), not wall
# time: other jobs share this machine.
#
#   bench/peers.sh                  # 5 rounds, 12 corpus files per platform, 1 MB large kernel
#   ROUNDS=3 REPEAT=3 FILES=4 LARGE_MB=2 bench/peers.sh   (REPEAT: runs of each job per round)
#
# Peers: GenX_IR and iga64 on PATH (Debian libigc-tools), and, when unpacked,
# /work/peers/{bullseye,sid}/bin/GenX_IR (or PEER_DIRS="dir ..."), each on the texts its
# own IGC printed (corpus intel, intel-legacy, intel-sid). Inputs come from
# ../shared/corpus/intel (or CORPUS=...); nothing there is written: every tool runs on
# copies in a scratch folder, since GenX_IR writes beside its input.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-5}
FILES=${FILES:-12}
LARGE_MB=${LARGE_MB:-1}
CORPUS=${CORPUS:-../shared/corpus/intel}
PEER_DIRS=${PEER_DIRS:-/work/peers/bullseye/bin /work/peers/sid/bin}

[ -d "$CORPUS" ] || { echo "peers.sh: no corpus at $CORPUS" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "peers.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cargo build --release -q -p gpukit
cargo run --release -q -p gpukit-visa --example large_kernel -- "$tmp/large.visaasm" "$LARGE_MB"
gpukit=$PWD/target/release/gpukit

# GenX_IR platform of a corpus folder (as the interop tests name them).
genx_platform() {
  case $1 in
    skl) echo SKL ;; icllp) echo ICLLP ;; tgllp) echo TGLLP ;; acm-g10) echo DG2 ;; pvc) echo PVCXT ;;
    *) return 1 ;;
  esac
}
# iga64 platform of a corpus folder.
iga_platform() {
  case $1 in
    skl) echo 9 ;; tgllp) echo 12p1 ;; acm-g10) echo 12p71 ;; pvc) echo 12p72 ;;
    *) return 1 ;;
  esac
}

# Runs a job file (lines "DIR<TAB>COMMAND") in one timed shell, each job $REPEAT times
# in the folder of its input, and prints the CPU seconds (user + sys) of that shell and
# everything it ran, per repetition. One shell for the whole list: /usr/bin/time counts
# in 10 ms ticks, coarser than one gpukit run on a corpus file.
run_jobs() {
  local script=$tmp/jobs.sh
  awk -F '\t' -v rep="$REPEAT" '{ printf "cd %s && for _ in $(seq %d); do %s >/dev/null 2>&1; done\n", $1, rep, $2 }' "$1" >"$script"
  echo true >>"$script"
  /usr/bin/time -f '%U %S' -o "$tmp/time" bash "$script" >/dev/null 2>&1 || true
  # The last line: a failing command's first line is "Command exited with ...".
  tail -n 1 "$tmp/time" | awk -v rep="$REPEAT" '{ printf "%.4f\n", ($1 + $2) / rep }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# compare NAME OURS_JOBS PEER_JOBS BYTES NOTE: alternating rounds, medians, ratio.
compare() {
  local name=$1 ours=$2 peer=$3 bytes=$4 note=$5
  local r o p
  : >"$tmp/o" && : >"$tmp/p"
  for ((r = 0; r < ROUNDS; r++)); do
    if ((r % 2 == 0)); then
      run_jobs "$ours" >>"$tmp/o"; run_jobs "$peer" >>"$tmp/p"
    else
      run_jobs "$peer" >>"$tmp/p"; run_jobs "$ours" >>"$tmp/o"
    fi
  done
  o=$(median <"$tmp/o"); p=$(median <"$tmp/p")
  awk -v n="$name" -v o="$o" -v p="$p" -v b="$bytes" -v note="$note" -v rounds="$ROUNDS" 'BEGIN {
    mb = b / 1e6
    printf "%-44s gpukit %8.4f s", n, o
    if (o > 0) printf " (%6.1f MB/s)", mb / o
    printf "   peer %8.4f s", p
    if (p > 0) printf " (%6.1f MB/s)", mb / p
    if (o > 0) printf "   peer/gpukit %6.2fx", p / o
    printf "   [%.2f MB, median of %d]\n", mb, rounds
    if (note != "") printf "    note: %s\n", note
  }'
}

# The first $FILES files of a suffix per platform folder of a corpus.
pick() {
  local suffix=$1 corpus=${2:-$CORPUS} dev
  for dev in skl icllp tgllp acm-g10 pvc; do
    # awk reads to the end (head would leave sort to die of SIGPIPE under pipefail).
    { ls "$corpus/$dev"/*"$suffix" 2>/dev/null || true; } | sort | awk -v n="$FILES" 'NR <= n'
  done
}

bytes_of() { cat "$@" | wc -c; }

# wrote OURS_GLOB PEER_GLOB N: how many outputs each side wrote (a tool that failed
# fast would look fast).
wrote() {
  local o p
  o=$( (eval "ls $1" 2>/dev/null || true) | wc -l); p=$( (eval "ls $2" 2>/dev/null || true) | wc -l)
  echo "    outputs: gpukit wrote $o of $3 .isa, the peer $p of $3 ($(basename "$2"))"
}

echo "gpukit $(git rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); CPU time, $ROUNDS alternating rounds"

# --- vISA text -> .isa: gpukit visa asm against GenX_IR ------------------------------
# visa_vs TOOL LABEL CORPUS LARGE: each peer on the texts its own IGC printed (a
# 1.0.5353 GenX_IR does not read 1.0.12504's text); LARGE=1 adds the large kernel.
visa_vs() {
  local tool=$1 label=$2 corpus=$3 large=$4 f dev plat i=0 n=0
  # IGC 2.x's GenX_IR no longer writes the .isa: it only compiles (Gen bits as .dat).
  local isa_opt="-outputCisaBinaryName genx.isa" peer_out=genx.isa
  if [ "$label" = sid ]; then isa_opt="" peer_out="*.dat"; fi
  local ours=$tmp/visa.ours.$label peer=$tmp/visa.peer.$label
  : >"$ours" && : >"$peer"
  local inputs=()
  while read -r f; do
    dev=$(basename "$(dirname "$f")")
    plat=$(genx_platform "$dev") || continue
    i=$((i + 1))
    mkdir -p "$tmp/v$label$i"
    cp "$f" "$tmp/v$label$i/"
    local b
    b=$(basename "$f")
    printf '%s\t%q visa asm %q -o out.isa\n' "$tmp/v$label$i" "$gpukit" "$b" >>"$ours"
    printf '%s\t%q %q -platform %s -binary %s\n' "$tmp/v$label$i" "$tool" "$b" "$plat" "$isa_opt" >>"$peer"
    inputs+=("$f")
  done < <(pick .visaasm "$corpus")
  if [ ${#inputs[@]} = 0 ]; then
    echo "visa asm vs $label GenX_IR: no .visaasm under $corpus; skipped"
    return 0
  fi
  n=$(bytes_of "${inputs[@]}")
  compare "visa asm vs $label GenX_IR (${#inputs[@]} files of $(basename "$corpus"))" "$ours" "$peer" "$n" \
    "$(if [ "$label" = sid ]; then echo "IGC 2.x GenX_IR writes no .isa: it parses and compiles to Gen code (.dat)"; else echo "GenX_IR also compiles the kernel to Gen code after writing the .isa: its time is the whole tool"; fi)"
  wrote "$tmp/v$label"'*'/out.isa "$tmp/v$label"'*'/"$peer_out" "${#inputs[@]}"
  [ "$large" = 1 ] || return 0
  mkdir -p "$tmp/vl$label"
  cp "$tmp/large.visaasm" "$tmp/vl$label/"
  printf '%s\t%q visa asm large.visaasm -o out.isa\n' "$tmp/vl$label" "$gpukit" >"$ours"
  # The large kernel repeats tests/data/visa/local_histogram__histogram_local__simd32.visaasm, an SKL kernel.
  printf '%s\t%q large.visaasm -platform SKL -binary -outputCisaBinaryName genx.isa\n' "$tmp/vl$label" "$tool" >"$peer"
  compare "visa asm vs $label GenX_IR (large kernel)" "$ours" "$peer" "$(bytes_of "$tmp/large.visaasm")" ""
  wrote "$tmp/vl$label/out.isa" "$tmp/vl$label/genx.isa" 1
}

if command -v GenX_IR >/dev/null 2>&1; then
  visa_vs "$(command -v GenX_IR)" system "$CORPUS" 1
else
  echo "GenX_IR: not on PATH (apt-get install libigc-tools); skipped"
fi
for d in $PEER_DIRS; do
  [ -x "$d/GenX_IR" ] || continue
  name=$(basename "$(dirname "$d")")
  case $name in
    bullseye) visa_vs "$d/GenX_IR" "$name" "$CORPUS/../intel-legacy" 0 ;;
    sid) visa_vs "$d/GenX_IR" "$name" "$CORPUS/../intel-sid" 0 ;;
    *) visa_vs "$d/GenX_IR" "$name" "$CORPUS" 0 ;;
  esac
done

# --- IGA: gpukit iga print / convert against iga64 -d --------------------------------
if command -v iga64 >/dev/null 2>&1; then
  ours_p=$tmp/iga.print ours_c=$tmp/iga.convert peer=$tmp/iga.peer
  : >"$ours_p" && : >"$ours_c" && : >"$peer"
  jsons=() dats=()
  i=0
  while read -r dat; do
    dev=$(basename "$(dirname "$dat")")
    plat=$(iga_platform "$dev") || continue
    json=${dat%.dat}.iga.json
    [ -f "$json" ] || continue
    i=$((i + 1))
    mkdir -p "$tmp/i$i"
    cp "$dat" "$json" "$tmp/i$i/"
    printf '%s\t%q iga print --lenient %q\n' "$tmp/i$i" "$gpukit" "$(basename "$json")" >>"$ours_p"
    printf '%s\t%q iga convert --lenient --to 2 %q\n' "$tmp/i$i" "$gpukit" "$(basename "$json")" >>"$ours_c"
    printf '%s\tiga64 -d -p=%s %q\n' "$tmp/i$i" "$plat" "$(basename "$dat")" >>"$peer"
    jsons+=("$json") dats+=("$dat")
  done < <(pick .dat)
  note="closest like-for-like: iga64 -d decodes the Gen bits to assembly; gpukit renders the same kernel's iga64 JSON (MB/s of JSON read)"
  compare "iga print vs iga64 -d (${#jsons[@]} kernels)" "$ours_p" "$peer" "$(bytes_of "${jsons[@]}")" "$note"
  compare "iga convert --to 2 vs iga64 -d" "$ours_c" "$peer" "$(bytes_of "${jsons[@]}")" "$note"
else
  echo "iga64: not on PATH (apt-get install libigc-tools); skipped"
fi
