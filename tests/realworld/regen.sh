#!/bin/bash
# regen.sh - build the real-world vISA corpus: OpenCL C kernels from Debian source packages
# (tests/realworld/packages.tsv), compiled by three Intel Graphics Compiler releases with shader dumps.
#
# usage: tests/realworld/regen.sh [OUT] [-j N] [-r "bookworm bullseye sid"] [-p "ffmpeg gegl ..."]
#        tests/realworld/regen.sh sample OUT DEST     (refresh the checked-in sample, see README.md)
#   OUT defaults to $GPUKIT_REALWORLD, else target/realworld of the workspace. -r selects releases,
#   -p packages; DEVICES_BOOKWORM / DEVICES_BULLSEYE / DEVICES_SID override the device lists.
#
# Steps (each one can be re-run; outputs of the selected releases, devices and packages are rebuilt):
#  1. fetch:   apt-get source --tar-only <package>=<version> for every row of packages.tsv, with a private
#              apt configuration (deb-src for the machine's mirror, bookworm and sid) under OUT/apt;
#              tarballs are cached in OUT/debs and unpacked into OUT/src/<package>/.
#  2. prepare: every kernel file below the package's root that matches its pattern becomes
#              OUT/cl/<package>/<flat>.cl (<flat> = path below the root, '/' -> '.'), with local
#              #include "x" files inlined, clpeak's MSTRINGIFY( ... ) wrapper removed, and a first line "// OCLOC_OPTIONS: <opts>" when options.tsv
#              (or, for oclgrind, the test's .sim file) gives build options; oclgrind's kernels also get
#              "// LAUNCH: global X Y Z local X Y Z" from the .sim file (read by tools/visa_run_oracle.py). Files marked SKIP there
#              are left out (OUT/logs/skipped-sources.tsv).
#  3. compile: for every release, device and prepared file, in a fresh directory
#              <scratch>/<release>/<device>/<package>/<flat> holding a copy of the file:
#                IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump/ ocloc compile -file <flat>.cl \
#                  -device <device> -out_dir bin [-options "<opts>"]
#              and copies IGC's dumps of the final compile attempt of each kernel to
#                OUT/<release>/<package>/<device>/<flat>__<kernel>.{isa,visaasm,asm}
#              (the same recipe as ../shared/corpus/intel*/: relative dump dir, trailing slash, highest
#              retry among attempts with Gen code; __simd<N> is appended when two widths remain).
# Releases:
#   bookworm  Debian 12's ocloc from PATH (intel-opencl-icd 22.43, IGC 1.0.12504): vISA 4.1 text and
#             the defective 4.1 .isa; devices skl icllp tgllp acm-g10 pvc.
#   bullseye  IGC 1.0.5353 (vISA 3.6 .isa + text) unpacked by ../shared/peers/bullseye-igc.sh into
#             $BULLSEYE_IGC (default /work/peers/bullseye); devices skl icllp tgllp.
#   sid       IGC 2.x (vISA 4.2 text, no .isa) unpacked by ../shared/peers/sid-igc.sh into $SID_IGC
#             (default /work/peers/sid); devices tgllp acm-g10 pvc.
# Logs in OUT/logs: ocloc.tsv (every compile), failed.tsv (compiles that failed, first error),
# skipped-variants.tsv, <release>.<device>.<package>.build.log (full ocloc output), summary.tsv (per
# release, package and device: sources, compiled, failed, kernels). A run with -r/-p/DEVICES_* replaces
# only the outputs and log rows of the releases, devices and packages it rebuilt. Machine directories are scrubbed from the logs.
set -u
export LC_ALL=C
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

# ---------------------------------------------------------------- sample mode
if [ "${1:-}" = sample ]; then
  # sample OUT DEST: for every release, package and device, the largest dumps below SAMPLE_MAX bytes
  # (default 8000) of up to SAMPLE_PER (default 1) different source files, with their .isa; a package
  # with no dump that small gets its smallest one, on one device per release.
  OUT=${2:?usage: $0 sample OUT DEST}; DEST=${3:?usage: $0 sample OUT DEST}
  PER=${SAMPLE_PER:-1}; MAX=${SAMPLE_MAX:-8000}
  rm -rf "$DEST/bookworm" "$DEST/bullseye" "$DEST/sid"
  declare -A fell=()
  for rel in bookworm bullseye sid; do
    for pd in "$OUT/$rel"/*/*/; do
      [ -d "$pd" ] || continue
      dev=$(basename "$pd"); pkg=$(basename "$(dirname "$pd")")
      # below the limit, largest first, one per source file; if none is below, the smallest, on the
      # first device of the release and package only
      local_fallback=1; [ -n "${fell[$rel/$pkg]:-}" ] && local_fallback=0; fell[$rel/$pkg]=1
      find "$pd" -maxdepth 1 -name '*.visaasm' -printf '%s\t%p\n' | sort -k1,1n -k2 |
        awk -F'\t' -v per="$PER" -v max="$MAX" -v fallback="$local_fallback" '
          { size[NR] = $1; path[NR] = $2 }
          END {
            for (i = NR; i >= 1 && picked < per; i--) {
              if (size[i] + 0 >= max + 0) continue
              src = path[i]; sub(/.*\//, "", src); sub(/__.*/, "", src)
              if (!(src in seen)) { seen[src] = 1; picked++; print path[i] }
            }
            if (!picked && NR && fallback) print path[1]
          }' |
        while read -r f; do
          d=$DEST/$rel/$pkg/$dev; mkdir -p "$d"
          for ext in visaasm isa; do [ -f "${f%.visaasm}.$ext" ] && cp "${f%.visaasm}.$ext" "$d/"; done
        done
    done
  done
  du -sh --apparent-size "$DEST"; exit 0
fi

OUT=""; JOBS=2; RELEASES="bookworm bullseye sid"; PKGS=""
while [ $# -gt 0 ]; do
  case "$1" in
    -j) JOBS=$2; shift 2 ;;
    -r) RELEASES=$2; shift 2 ;;
    -p) PKGS=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | grep '^#' | cut -c3-; exit 0 ;;
    *) OUT=$1; shift ;;
  esac
done
OUT=${OUT:-${GPUKIT_REALWORLD:-$ROOT/target/realworld}}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
BULLSEYE_IGC=${BULLSEYE_IGC:-/work/peers/bullseye}
SID_IGC=${SID_IGC:-/work/peers/sid}
DEVICES_BOOKWORM=${DEVICES_BOOKWORM:-skl icllp tgllp acm-g10 pvc}
DEVICES_BULLSEYE=${DEVICES_BULLSEYE:-skl icllp tgllp}
DEVICES_SID=${DEVICES_SID:-tgllp acm-g10 pvc}
LOG=$OUT/logs
mkdir -p "$LOG"
[ -n "$PKGS" ] || PKGS=$(grep -v '^#' "$HERE/packages.tsv" | cut -f1 | tr '\n' ' ')

# ---------------------------------------------------------------- 1. fetch
fetch() {
  local mirror apt pkg ver suite rest
  mirror=${MIRROR:-$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)}
  [ -n "$mirror" ] || { echo "no mirror: set MIRROR=http://host/debian" >&2; exit 2; }
  apt=$OUT/apt
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$OUT/debs"
  printf 'deb-src %s bookworm main\ndeb-src %s sid main\n' "$mirror" "$mirror" > "$apt/sources.list"
  local A=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o "Dir::Etc::sourceparts=-"
           -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
  [ -n "$(ls "$apt/lists" 2>/dev/null | grep Sources)" ] || apt-get "${A[@]}" update >&2 || exit 2
  while IFS=$'\t' read -r pkg ver suite rest; do
    case " $PKGS " in *" $pkg "*) ;; *) continue ;; esac
    local up=${ver#*:}; up=${up%-*}
    if ! ls "$OUT/debs/${pkg}_${up}".orig.tar.* >/dev/null 2>&1; then
      (cd "$OUT/debs" && apt-get "${A[@]}" source --download-only --tar-only "$pkg=$ver" >&2)
    fi
    [ "$(cat "$OUT/src/$pkg/.debian-version" 2>/dev/null)" = "$ver" ] && continue
    local tb
    tb=$(ls "$OUT/debs/${pkg}_${up}".orig.tar.* 2>/dev/null | grep -v -e '\.asc$' -e 'orig-' | head -1)
    [ -n "$tb" ] || { echo "fetch: no upstream tarball for $pkg $ver" >&2; exit 2; }
    rm -rf "$OUT/src/$pkg"; mkdir -p "$OUT/src/$pkg"
    # only the OpenCL sources and the headers they might include are unpacked
    tar -C "$OUT/src/$pkg" --strip-components=1 -xf "$tb" --wildcards '*.cl' '*.h' '*.clh' '*.sim' 2>/dev/null ||
      tar -C "$OUT/src/$pkg" --strip-components=1 -xf "$tb" --wildcards '*.cl' || exit 2
    echo "$ver" > "$OUT/src/$pkg/.debian-version"
  done < <(grep -v '^#' "$HERE/packages.tsv")
}

# ---------------------------------------------------------------- 2. prepare
inline_includes() {  # $1 = .cl file: print it with #include "x" of files beside it inlined (depth 3)
  awk -v depth=0 '
    function emit(file, d,   line, m, dir, inc) {
      dir = file; sub(/[^\/]*$/, "", dir)
      while ((getline line < file) > 0) {
        if (d < 3 && match(line, /^[ \t]*#[ \t]*include[ \t]*"[^"]+"/)) {
          inc = line; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
          if ((getline m < (dir inc)) >= 0) { close(dir inc); print "// inlined: " inc; emit(dir inc, d + 1); continue }
        }
        print line
      }
      close(file)
    }
    BEGIN { emit(ARGV[1], 0); exit }' "$1"
}

unstringify() {  # clpeak keeps kernels as MSTRINGIFY( ... ) with "\n#define" lines: undo the wrapper
  awk '{ l[NR] = $0 } END {
    first = 1; while (first <= NR && l[first] ~ /^[ \t]*$/) first++
    if (!(l[first] ~ /^MSTRINGIFY\($/)) { for (i = 1; i <= NR; i++) print l[i]; exit }
    last = NR; while (last > first && l[last] ~ /^[ \t]*$/) last--
    if (l[last] ~ /^\)[ \t]*;?$/) last--
    for (i = first + 1; i <= last; i++) { s = l[i]; sub(/^\\n/, "", s); print s } }'
}

prepare() {
  local pkg ver suite root pat rel flat opts sim f pre
  mkdir -p "$OUT/cl"
  { printf '#package\tpath\treason\n'
    grep -v '^#' "$LOG/skipped-sources.tsv" 2>/dev/null | awk -F'\t' -v pkgs=" $PKGS " 'index(pkgs, " " $1 " ") == 0'
  } > "$LOG/skipped-sources.tsv.new"; mv "$LOG/skipped-sources.tsv.new" "$LOG/skipped-sources.tsv"
  while IFS=$'\t' read -r pkg ver suite root pat; do
    case " $PKGS " in *" $pkg "*) ;; *) continue ;; esac
    local base=$OUT/src/$pkg/$root
    [ -d "$base" ] || { echo "prepare: $base missing (run fetch)" >&2; exit 2; }
    rm -rf "$OUT/cl/$pkg"; mkdir -p "$OUT/cl/$pkg"
    local finds=() p
    IFS='|' read -r -a pats <<< "$pat"
    for p in "${pats[@]}"; do finds+=(-o -path "./$p"); done
    (cd "$base" && find . -type f -name '*.cl' \( -false "${finds[@]}" \) | sed 's#^\./##' | sort) |
    while read -r rel; do
      # options.tsv: the row for this path, else the package's "*" row
      opts=$(awk -F'\t' -v p="$pkg" -v r="$rel" '$1 == p && $2 == r {print $3; exit}' "$HERE/options.tsv")
      [ -n "$opts" ] || opts=$(awk -F'\t' -v p="$pkg" '$1 == p && $2 == "*" {print $3; exit}' "$HERE/options.tsv")
      case "$opts" in SKIP*) printf '%s\t%s\t%s\n' "$pkg" "$rel" "${opts#SKIP }" >> "$LOG/skipped-sources.tsv"; continue ;; esac
      launch=""
      if [ "$pkg" = oclgrind ]; then
        # oclgrind's test runner takes build options from the .sim file that names the kernel
        # file, and the launch: its 3rd and 4th lines that are not comments (global, local size)
        for sim in "$base/$(dirname "$rel")"/*.sim; do
          [ -f "$sim" ] || continue
          grep -qx "$(basename "$rel")" "$sim" || continue
          [ -n "$opts" ] || opts=$(sed -n 's/^# ARGS:.*--build-options \(.*\)$/\1/p' "$sim" | head -1)
          launch=$(grep -v -e '^#' -e '^[[:space:]]*$' "$sim" | sed -n '3p;4p' | tr -s ' \t' ' ' |
                   awk 'NR == 1 { g = $0 } NR == 2 { l = $0 } END { if (g != "" && l != "") print "global " g " local " l }')
          break
        done
      fi
      opts=${opts//@SRC@/$OUT/src/$pkg}  # -I into the unpacked sources, as gromacs' host code passes
      # @PRE=<path>@: a header the package's build prepends to every kernel file (x264 concatenates them)
      pre=; case "$opts" in *@PRE=*@*) pre=${opts#*@PRE=}; pre=${pre%%@*}; opts=${opts/@PRE=$pre@/}; opts=${opts# } ;; esac
      flat=$(echo "${rel%.cl}" | tr '/' '.')
      f=$OUT/cl/$pkg/$flat.cl
      { [ -n "$opts" ] && echo "// OCLOC_OPTIONS: $opts"
        [ -n "$launch" ] && echo "// LAUNCH: $launch"
        echo "// realworld corpus: $pkg $ver, $root/$rel"
        { [ -z "$pre" ] || inline_includes "$base/$pre"; inline_includes "$base/$rel"; } | unstringify; } > "$f"
    done
  done < <(grep -v '^#' "$HERE/packages.tsv")
}

# ---------------------------------------------------------------- 3. compile
# one (release, device, package, file): run ocloc, keep the final attempt of each kernel
compile_one() {
  local rel=$1 dev=$2 pkg=$3 cl=$4 flat opts w rc genext exts part
  flat=$(basename "$cl" .cl)
  opts=$(sed -n '1s#^// *OCLOC_OPTIONS: *##p' "$cl")
  w=$SCRATCH/$rel/$dev/$pkg/$flat
  part=$LOG/parts/$rel.$dev.$pkg.$flat
  rm -rf "$w"; mkdir -p "$w/bin" "$w/dump" "$OUT/$rel/$pkg/$dev"; cp "$cl" "$w/"
  local args=(compile -file "$flat.cl" -device "$dev" -out_dir bin)
  [ -n "$opts" ] && args+=(-options "$opts")
  case $rel in
    bookworm) genext=dat; exts="isa visaasm asm"
      ( cd "$w" && IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump/ timeout 300 ocloc "${args[@]}" ) > "$w/ocloc.log" 2>&1 ;;
    bullseye) genext=asm; exts="isa visaasm asm"
      local U=$BULLSEYE_IGC/root/usr
      ( cd "$w" && IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump/ \
          LD_LIBRARY_PATH=$U/lib/x86_64-linux-gnu:$U/lib:$U/lib/llvm-11/lib \
          timeout 300 bash -c 'exec -a ocloc "$0" "$@"' "$U/bin/ocloc" "${args[@]}" ) > "$w/ocloc.log" 2>&1 ;;
    sid) genext=asm; exts="visaasm asm"
      local U=$SID_IGC/root/usr
      ( cd "$w" && IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump/ timeout 300 \
          "$U/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
          --library-path "$U/lib/x86_64-linux-gnu:$U/lib/x86_64-linux-gnu/intel-opencl" \
          --argv0 ocloc "$(ls "$U"/bin/ocloc-* | head -1)" "${args[@]}" ) > "$w/ocloc.log" 2>&1 ;;
  esac
  rc=$?
  { echo "=== $rel $dev $pkg/$flat${opts:+ (options: $opts)}"; cat "$w/ocloc.log"; echo "rc=$rc"; } > "$part.log"
  if [ $rc -ne 0 ]; then
    local err
    err=$(grep -v -E '^(Build failed with error code|Command was:)' "$w/ocloc.log" | grep -m1 -i 'error' ||
          head -1 "$w/ocloc.log")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rel" "$dev" "$pkg" "$flat.cl" "$rc" "$(echo "$err" | tr '\t' ' ')" > "$part.fail"
    printf '%s\t%s\t%s\t%s\tFAIL\t0\n' "$rel" "$dev" "$pkg" "$flat.cl" > "$part.ocloc"
    return
  fi
  # Dump names: OCL_asm<hash>[_<retry>]_simd<N>_{entry_<NNNN>|<kernel>}.<ext>; the kernel name is on the
  # .kernel line. The attempt in the final binary is the one with Gen code and the highest <retry>.
  local -A best=() nbest=()
  local va stem k r simd n=0 dst
  kname() { sed -n 's/^\.kernel "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$1" | head -1; }
  retry() { basename "$1" | sed -n 's/^OCL_asm[0-9a-f]*_\([0-9][0-9]*\)_simd.*/\1/p'; }
  for va in "$w"/dump/OCL_asm*_simd*.visaasm; do
    [ -e "$va" ] || continue; stem=${va%.visaasm}; [ -e "$stem.$genext" ] || continue
    k=$(kname "$va"); r=$(retry "$stem"); r=${r:-0}
    if [ -z "${best[$k]+x}" ] || [ "$r" -gt "${best[$k]}" ]; then best[$k]=$r; fi
  done
  for va in "$w"/dump/OCL_asm*_simd*.visaasm; do
    [ -e "$va" ] || continue; stem=${va%.visaasm}; [ -e "$stem.$genext" ] || continue
    k=$(kname "$va"); r=$(retry "$stem"); r=${r:-0}
    [ "$r" = "${best[$k]}" ] && nbest[$k]=$(( ${nbest[$k]:-0} + 1 ))
  done
  : > "$part.skip"
  for va in "$w"/dump/OCL_asm*_simd*.visaasm; do
    [ -e "$va" ] || continue; stem=${va%.visaasm}
    k=$(kname "$va"); r=$(retry "$stem"); r=${r:-0}
    simd=$(basename "$stem"); simd=${simd#OCL_asm*_simd}; simd=${simd%%_*}
    if [ ! -e "$stem.$genext" ] || [ "$r" != "${best[$k]:-x}" ]; then
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rel" "$dev" "$pkg/$flat.cl" "$k" "$(basename "$stem")" \
        "$([ -e "$stem.$genext" ] && echo "superseded by retry ${best[$k]}" || echo "attempt abandoned (no Gen code)")" >> "$part.skip"
      continue
    fi
    dst=$OUT/$rel/$pkg/$dev/${flat}__$k
    [ "${nbest[$k]}" -gt 1 ] && dst=${dst}__simd$simd
    for ext in $exts; do [ -e "$stem.$ext" ] && cp "$stem.$ext" "$dst.$ext"; done
    n=$((n + 1))
  done
  printf '%s\t%s\t%s\t%s\tok\t%s\n' "$rel" "$dev" "$pkg" "$flat.cl" "$n" > "$part.ocloc"
}

devices_of() { case $1 in bookworm) echo "$DEVICES_BOOKWORM";; bullseye) echo "$DEVICES_BULLSEYE";; sid) echo "$DEVICES_SID";; esac; }

compile_all() {
  local rel dev pkg cl
  for rel in $RELEASES; do
    case $rel in
      bookworm) command -v ocloc >/dev/null || { echo "bookworm: no ocloc (apt-get install intel-opencl-icd)" >&2; exit 2; } ;;
      bullseye) [ -x "$BULLSEYE_IGC/root/usr/bin/ocloc" ] || { echo "bullseye: run ../shared/peers/bullseye-igc.sh $BULLSEYE_IGC" >&2; exit 2; } ;;
      sid) ls "$SID_IGC"/root/usr/bin/ocloc-* >/dev/null 2>&1 || { echo "sid: run ../shared/peers/sid-igc.sh $SID_IGC" >&2; exit 2; } ;;
      *) echo "unknown release $rel" >&2; exit 2 ;;
    esac
    for pkg in $PKGS; do for dev in $(devices_of "$rel"); do rm -rf "$OUT/$rel/$pkg/$dev"; done; done
  done
  rm -rf "$LOG/parts"; mkdir -p "$LOG/parts"   # a killed run's parts are not merged
  for rel in $RELEASES; do for dev in $(devices_of "$rel"); do for pkg in $PKGS; do
    for cl in "$OUT/cl/$pkg"/*.cl; do [ -e "$cl" ] && printf '%s\0%s\0%s\0%s\0' "$rel" "$dev" "$pkg" "$cl"; done
  done; done; done | xargs -0 -n 4 -P "$JOBS" bash -c 'compile_one "$@"' compile_one
}

# Rows of an old log (columns: release, device, ...) that this run did not redo: another release or
# device, or a package not selected. $1 = log file, $2 = column of the package (a "package/file" value
# counts by its prefix).
kept_rows() {
  [ -f "$1" ] || return 0
  local rel dev redone=" "
  for rel in $RELEASES; do for dev in $(devices_of "$rel"); do redone+="$rel/$dev "; done; done
  grep -v '^#' "$1" | awk -F'\t' -v col="$2" -v redone="$redone" -v pkgs=" $PKGS " '
    { p = $col; sub(/\/.*/, "", p)
      if (index(redone, " " $1 "/" $2 " ") == 0 || index(pkgs, " " p " ") == 0) print }'
}

merge_logs() {
  local rel pkg
  local scrub=(-e "s#$SCRATCH#<scratch>#g" -e "s#$OUT#<out>#g" -e "s#$BULLSEYE_IGC#<bullseye-igc>#g" -e "s#$SID_IGC#<sid-igc>#g")
  local dev
  for rel in $RELEASES; do for dev in $(devices_of "$rel"); do for pkg in $PKGS; do
    ls "$LOG/parts/$rel.$dev.$pkg".*.log >/dev/null 2>&1 || continue
    cat $(ls "$LOG/parts/$rel.$dev.$pkg".*.log | sort) | sed "${scrub[@]}" > "$LOG/$rel.$dev.$pkg.build.log"
  done; done; done
  { printf '#release\tdevice\tpackage\tfile\tstatus\tkernels\n'
    { kept_rows "$LOG/ocloc.tsv" 3; cat "$LOG"/parts/*.ocloc 2>/dev/null; } | sort; } > "$LOG/ocloc.tsv.new"
  { printf '#release\tdevice\tpackage\tfile\trc\tfirst error\n'
    { kept_rows "$LOG/failed.tsv" 3; cat "$LOG"/parts/*.fail 2>/dev/null | sed "${scrub[@]}"; } | sort; } > "$LOG/failed.tsv.new"
  { printf '#release\tdevice\tfile\tkernel\tIGC dump not kept\treason\n'
    { kept_rows "$LOG/skipped-variants.tsv" 3; cat "$LOG"/parts/*.skip 2>/dev/null; } | sort; } > "$LOG/skipped-variants.tsv.new"
  for f in ocloc failed skipped-variants; do mv "$LOG/$f.tsv.new" "$LOG/$f.tsv"; done
  rm -rf "$LOG/parts"
  { printf '#release\tpackage\tdevice\tsources\tcompiled\tfailed\tkernels\n'
    grep -v '^#' "$LOG/ocloc.tsv" | awk -F'\t' '
      { k = $1 "\t" $3 "\t" $2; src[k]++; if ($5 == "ok") { ok[k]++; kern[k] += $6 } else fail[k]++ }
      END { for (k in src) printf "%s\t%d\t%d\t%d\t%d\n", k, src[k], ok[k], fail[k], kern[k] }' | sort; } > "$LOG/summary.tsv"
}

export -f compile_one
export OUT LOG BULLSEYE_IGC SID_IGC
SCRATCH=$(mktemp -d -t realworld.XXXXXX) || exit 2
export SCRATCH
[ "${KEEP_SCRATCH:-0}" = 1 ] && echo "scratch directory: $SCRATCH" >&2 || trap 'rm -rf "$SCRATCH"' EXIT

fetch
prepare
compile_all
merge_logs
column -t "$LOG/summary.tsv"
