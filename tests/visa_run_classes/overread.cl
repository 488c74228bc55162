// Loads narrower than IGC's messages: vload3 and odd-sized element types read up to
// the exact end of buffers sized to the launch (no slack after the last element).
__kernel void vload3_f(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float3 v = vload3(i, in);
  out[i] = v.x + 2.0f * v.y + 4.0f * v.z;
}
__kernel void vload3_i(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int3 v = vload3(i, in);
  out[i] = v.x ^ (v.y << 3) ^ (v.z << 7);
}
__kernel void vload3_c(__global char *out, __global const char *in) {
  int i = get_global_id(0);
  char3 v = vload3(i, in);
  out[i] = v.x + v.y - v.z;
}
__kernel void vload3_s(__global short *out, __global const short *in) {
  int i = get_global_id(0);
  short3 v = vload3(i, in);
  out[i] = v.x + v.y - v.z;
}
__kernel void byte_copy(__global uchar *out, __global const uchar *in) {
  int i = get_global_id(0);
  out[i] = in[i] + 1;
}
__kernel void float3_rw(__global float *out, __global const float3 *in) {
  int i = get_global_id(0);
  float3 v = in[i] * 2.0f; out[i] = v.x + v.y - v.z;
}
__kernel void vstore3_f(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  vstore3((float3)(in[i], in[i] + 1.0f, in[i] * 3.0f), i, out);
}
