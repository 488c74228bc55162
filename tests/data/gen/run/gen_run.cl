// `iga run`'s CLI cases (tests/cli/iga/run_*) and `visa run --compare`: one kernel
// per program binary, built with -cl-kernel-arg-info so its arguments have names.
// Each <device>.<release>.{bin,asm,visaasm} is one ocloc compile (IGC's shader dump
// of it; the `.asm` without its `//.declare` table). regen.sh rebuilds them.
// OCLOC_OPTIONS: -cl-kernel-arg-info

__kernel void scale_copy(__global const float *in, __global float *out, float s) {
  int i = get_global_id(0);
  out[i] = in[i] * s;
}
