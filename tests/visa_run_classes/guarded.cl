// Faults guarded by control flow: the division and the access run only where the guard
// holds; the other channels are disabled and must not fault.
__kernel void div_guard_i(__global int *out, __global const int *a, __global const int *b) {
  int i = get_global_id(0);
  out[i] = b[i] != 0 ? a[i] / b[i] : -7;
}
__kernel void rem_guard_u(__global uint *out, __global const uint *a, __global const uint *b) {
  int i = get_global_id(0);
  uint r = 5;
  if (b[i] != 0) r = a[i] % b[i];
  out[i] = r;
}
__kernel void div_guard_l(__global long *out, __global const long *a, __global const long *b) {
  int i = get_global_id(0);
  out[i] = b[i] != 0 ? a[i] / b[i] : -7;
}
__kernel void div_guard_s(__global short *out, __global const short *a, __global const short *b) {
  int i = get_global_id(0);
  if (b[i] != 0) out[i] = a[i] / b[i];
}
// SCALAR n 37
__kernel void tail_guard(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  if (i < n) out[i] = in[i] * in[i];
}
// SCALAR n 29
__kernel void gather_guard(__global int *out, __global const int *idx, __global const int *in, int n) {
  int i = get_global_id(0);
  int k = idx[i];
  if (k >= 0 && k < n) out[i] = in[k];
  else out[i] = -1;
}
