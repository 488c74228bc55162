#!/usr/bin/env bash
# sid-pocl.sh DIR: Debian unstable's PoCL (CPU device, LLVM 21) with its Python host
# (python3.14, python3-pyopencl, python3-numpy), unpacked into DIR without installing
# anything, for the `visa run` oracle's kernels that Debian 12's PoCL 3.1 cannot build
# (half, sub-groups, work-group collectives).
#
# sid's binaries need sid's glibc, so nothing here runs with the host's loader: the
# dependency closure is resolved against an empty package database (every library,
# libc6 included, comes from sid), the packages are unpacked with dpkg-deb into
# DIR/root, and DIR/bin/python3 starts sid's python3.14 through sid's own
# ld-linux-x86-64.so.2 with `--library-path` (not LD_LIBRARY_PATH: that would leak
# into the Debian 12 programs the oracle starts, which would then load sid's libc with
# their own loader). OCL_ICD_VENDORS points the ICD loader at sid's pocl.icd only.
#
# Prints the versions it unpacked and, last, the wrapper's path. Idempotent: a DIR
# whose wrapper already answers is left as it is. MIRROR= overrides the Debian mirror
# (default: the first `URIs:` of the host's deb822 sources, else deb.debian.org).
set -euo pipefail

DIR=${1:?usage: sid-pocl.sh DIR}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
WRAPPER=$DIR/bin/python3
CHECK='import pyopencl as cl; print(cl.get_platforms()[0].version)'

if [ -x "$WRAPPER" ] && "$WRAPPER" -c "$CHECK" >/dev/null 2>&1; then
  echo "$WRAPPER"
  exit 0
fi

if [ -z "${MIRROR:-}" ]; then
  MIRROR=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi

state=$DIR/apt
mkdir -p "$state/lists/partial" "$state/archives/partial" "$DIR/root" "$DIR/bin"
echo "deb $MIRROR sid main" >"$state/sources.list"
: >"$state/status" # empty: apt resolves the whole closure, as for an empty system
apt_opts=(
  -o "Dir::Etc::sourcelist=$state/sources.list" -o "Dir::Etc::sourceparts=-"
  -o "Dir::State::Lists=$state/lists" -o "Dir::State::status=$state/status"
  -o "Dir::Cache=$state" -o "Dir::Cache::archives=$state/archives"
  -o "APT::Install-Recommends=0" -o "Debug::NoLocking=1"
)
apt-get "${apt_opts[@]}" update >&2

# The packages the oracle's host needs; apt's resolver picks one provider for each
# virtual dependency (the simulation installs nothing).
wanted=(pocl-opencl-icd ocl-icd-libopencl1 python3-pyopencl python3-numpy)
mapfile -t closure < <(apt-get "${apt_opts[@]}" -s install "${wanted[@]}" | awk '/^Inst /{print $2}')
[ ${#closure[@]} -gt 0 ] || { echo "sid-pocl.sh: apt resolved nothing for ${wanted[*]}" >&2; exit 1; }
(cd "$state/archives" && apt-get "${apt_opts[@]}" download "${closure[@]}" >&2)
for deb in "$state"/archives/*.deb; do
  dpkg-deb -x "$deb" "$DIR/root"
done

lib=$DIR/root/usr/lib/x86_64-linux-gnu
python=$(ls "$DIR"/root/usr/bin/python3.[0-9]* | grep -E 'python3\.[0-9]+$' | head -1)
cat >"$WRAPPER" <<EOF
#!/bin/sh
# sid's python with sid's PoCL as the only OpenCL platform (written by tools/sid-pocl.sh).
export OCL_ICD_VENDORS="$DIR/root/etc/OpenCL/vendors"
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$python" "\$@"
EOF
chmod +x "$WRAPPER"

for p in pocl-opencl-icd libpocl2t64 python3-pyopencl python3-numpy libc6; do
  ls "$state"/archives/"${p}"_*.deb >/dev/null 2>&1 &&
    echo "# $p $(dpkg-deb -f "$(ls "$state"/archives/"${p}"_*.deb | head -1)" Version)" >&2
done
"$WRAPPER" -c "$CHECK" >&2 || { echo "sid-pocl.sh: $WRAPPER cannot list the PoCL platform" >&2; exit 1; }
echo "$WRAPPER"
