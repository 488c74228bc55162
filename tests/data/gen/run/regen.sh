#!/bin/sh
# Rebuilds the fixtures of this folder from gen_run.cl: ocloc (Debian 12's, and IGC
# 2.x's when SID_OCLOC names its wrapper) for tgllp, dg2 and pvc.
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build() { # release ocloc device
  d="$work/$1-$3"; mkdir -p "$d"; cp "$here/gen_run.cl" "$d/"
  (cd "$d" && IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump/ "$2" compile -file gen_run.cl \
     -device "$3" -options -cl-kernel-arg-info -output_no_suffix -output k >/dev/null)
  b="$d/k"; [ -f "$b" ] || b="$d/k.bin"
  cp "$b" "$here/scale_copy.$3-$1.bin"
  v=$(grep -l '\.kernel "scale_copy"' "$d"/dump/*.visaasm)
  cp "$v" "$here/scale_copy.$3-$1.visaasm"
  grep -v '^//\.declare\|^// |\|^// +' "${v%.visaasm}.asm" > "$here/scale_copy.$3-$1.asm"
  # `visa run --compare`'s locating case: the dump with its //.declare table (where
  # each vISA variable lives) and one operand changed ($17's multiply reads r8.5,
  # not `s` in r8.4).
  if [ "$3-$1" = tgllp-deb12 ]; then
    grep -v '^// |\|^// +' "${v%.visaasm}.asm" |
      sed 's/\(mul (16|M0)  *r16.0<1>:f  *r16.0<8;8,1>:f  *\)r8.4<0;1,0>:f/\1r8.5<0;1,0>:f/' \
      > "$here/scale_copy.tgllp-deb12.broken.asm"
  fi
}
for dev in tgllp dg2 pvc; do build deb12 ocloc $dev; done
if [ -n "$SID_OCLOC" ]; then build sid "$SID_OCLOC" dg2; fi
# iga64 -d text of the DG2 binary's code, as a user without shader dumps makes it.
gpukit=${GPUKIT:-gpukit}
"$gpukit" intel gen "$here/scale_copy.dg2-deb12.bin" --kernel scale_copy -o "$work/sc.gen"
iga64 -d -p=12p71 "$work/sc.gen" > "$here/scale_copy.dg2-deb12.iga.asm"
