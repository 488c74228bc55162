__kernel void mad_sat_l(__global long *out, __global const long *a, __global const long *b, __global const long *c) {
  int i = get_global_id(0); out[i] = mad_sat(a[i], b[i], c[i]);
}
__kernel void mad_sat_ul(__global ulong *out, __global const ulong *a, __global const ulong *b, __global const ulong *c) {
  int i = get_global_id(0); out[i] = mad_sat(a[i], b[i], c[i]);
}
__kernel void mad_sat_i(__global int *out, __global const int *a, __global const int *b, __global const int *c) {
  int i = get_global_id(0); out[i] = mad_sat(a[i], b[i], c[i]);
}
