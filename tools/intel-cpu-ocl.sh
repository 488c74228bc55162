#!/usr/bin/env bash
# intel-cpu-ocl.sh DIR: Intel's CPU OpenCL runtime (PyPI intel-opencl-rt, with the
# compiler runtime libraries it loads) and pyopencl in a virtual environment at DIR,
# for the `visa run` oracle's kernels that Debian 12's PoCL 3.1 cannot build (half,
# sub-groups incl. cl_intel_subgroups, work-group collectives): the runtime builds
# them all, and forms sub-groups of the size CL_CONFIG_CPU_VECTORIZER_MODE names.
#
# Writes DIR/cl-python: the venv's python with that runtime as the only OpenCL
# platform. pyopencl's wheel brings its own ICD loader, which takes OCL_ICD_VENDORS
# naming one library as "load only this one"; the runtime's libraries are in DIR/lib.
# Prints the wrapper's path last. Idempotent: a DIR whose wrapper answers is kept.
set -euo pipefail

DIR=${1:?usage: intel-cpu-ocl.sh DIR}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
WRAPPER=$DIR/cl-python
CHECK='import pyopencl as cl; d = cl.get_platforms()[0].get_devices()[0]; print(d.platform.name, d.driver_version)'
# Versions the oracle was measured with.
PACKAGES=(intel-opencl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0 pyopencl==2026.1.4 numpy==2.4.6)

if [ -x "$WRAPPER" ] && "$WRAPPER" -c "$CHECK" >/dev/null 2>&1; then
  echo "$WRAPPER"
  exit 0
fi

python=${PYTHON:-python3}
[ -x "$DIR/bin/python" ] || "$python" -m venv "$DIR" >&2
"$DIR/bin/python" -m pip install -q --disable-pip-version-check "${PACKAGES[@]}" >&2

cat >"$WRAPPER" <<EOF
#!/bin/sh
# The venv's python with Intel's CPU OpenCL runtime as its only platform (tools/intel-cpu-ocl.sh).
export LD_LIBRARY_PATH="$DIR/lib" OCL_ICD_VENDORS="$DIR/lib/libintelocl.so"
exec "$DIR/bin/python" "\$@"
EOF
chmod +x "$WRAPPER"
"$WRAPPER" -c "$CHECK" >&2 || { echo "intel-cpu-ocl.sh: $WRAPPER sees no OpenCL platform" >&2; exit 1; }
echo "$WRAPPER"
