// Reads at addresses every work item shares (IGC loads them with block messages of its
// own width) from buffers of exactly the elements the source reads.
// LAUNCH 16 16
// COUNT w 3
__kernel void vload3_uniform(__global float *out, __global const float *w) {
  int i = get_global_id(0);
  float3 v = vload3(0, w);
  out[i] = v.x * i + v.y - v.z;
}
// COUNT w 1
__kernel void scalar_uniform(__global int *out, __global const int *w) {
  int i = get_global_id(0);
  out[i] = w[i / 1000] + i;
}
// COUNT w 3
__kernel void short3_uniform(__global short *out, __global const short *w) {
  int i = get_global_id(0);
  short3 v = vload3(0, w);
  out[i] = v.x * i + v.y - v.z;
}
// COUNT w 3
__kernel void uchar3_uniform(__global int *out, __global const uchar *w) {
  int i = get_global_id(0);
  uchar3 v = vload3(0, w);
  out[i] = v.x * i + v.y - v.z;
}
// COUNT w 6
__kernel void float3_pair_uniform(__global float *out, __global const float *w) {
  int i = get_global_id(0);
  float3 a = vload3(0, w), b = vload3(1, w);
  out[i] = dot(a, b) * i;
}
// COUNT w 3
// SCALAR k 0
__kernel void vload3_param(__global float *out, __global const float *w, int k) {
  int i = get_global_id(0);
  float3 v = vload3(k, w);
  out[i] = v.x * i + v.y - v.z;
}
