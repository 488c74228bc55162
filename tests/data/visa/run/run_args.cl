// visa run's argument and printf cases (tests/cli/visa/run_*): built with
// -cl-kernel-arg-info so patch-token binaries name their arguments too.
// OCLOC_OPTIONS: -cl-kernel-arg-info

// Local IDs in the per-thread payload: on PVC (64-byte GRFs) the cross-thread data
// follows them one 64-byte GRF later than on tgllp (lammps' kernel_zero has this shape).
__kernel void kernel_zero(__global int *a, const int n, const float scale, const long big) {
  int i = get_global_id(0);
  if (i < n) a[i] = i + 1 + (int)scale + (int)big;
}

__kernel void scale_copy(__global const float *in, __global float *out, float s) {
  int i = get_global_id(0);
  out[i] = in[i] * s;
}

__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void fixed_size(__global int *out) {
  out[get_global_id(0)] = get_local_size(0);
}

// Every printf form the runtime decodes: scalars of each width, vectors, strings,
// characters, flags, widths and precisions.
__kernel void print_forms(__global const int *v, float f) {
  int i = get_global_id(0);
  if (i < 3) {
    printf("i=%d u=%u x=%#06x o=%o c=%c s=%s %% l=%ld\n", v[i], (uint)v[i], v[i], v[i], 'a' + i, "str", (long)v[i] * 1000000007L);
    printf("f=%f e=%.3e g=%g G=%G a=%a w=[%8.2f] [%-6d]\n", f * i, f * i, f * i, f * 1e-7f * i, f, f, i);
    printf("p=%.10f v=%v4hlf vi=%v2hld vc=%v4hhd\n", f / 3 * i, (float4)(f, i, -f, 0.5f), (int2)(i, -i), (char4)(1, -2, 3, i));
  }
}
