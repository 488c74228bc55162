// What IGC emits for Xe-HPC (PVC): IEEE fp64 division and square root as the vISA macros
// divm and sqrtm, large private arrays on the thread's scratch surface (lsc ss(r0.5 >> 4)),
// and, in SIMD32, private arrays in registers addressed through &var[byte offset] in
// 64-byte GRFs. Devices without fp64 build nothing of this file; the others run it too.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// LAUNCH 64 32
__kernel void div_f64(__global double *o, __global const double *a, __global const double *b) {
  int i = get_global_id(0); o[i] = a[i] / b[i];
}
__kernel void sqrt_f64(__global double *o, __global const double *a) {
  int i = get_global_id(0); o[i] = sqrt(fabs(a[i]));
}
__kernel void private_big(__global uint *o, __global const uint *in) {
  int i = get_global_id(0); uint w[64];
  #pragma nounroll
  for (int k = 0; k < 64; ++k) w[k] = in[i] * (uint)(k + 1);
  uint s = 0;
  #pragma nounroll
  for (int k = 0; k < 64; ++k) s = s * 31u + w[(in[i] + 7 * k) & 63];
  o[i] = s;
}
__kernel void private_sort(__global int *o, __global const int *in) {
  int i = get_global_id(0); int buf[8];
  for (int k = 0; k < 8; ++k) buf[k] = in[8 * i + k];
  #pragma nounroll
  for (int k = 1; k < 8; ++k) {
    int key = buf[k]; int j = k - 1;
    while (j >= 0 && buf[j] > key) { buf[j + 1] = buf[j]; --j; }
    buf[j + 1] = key;
  }
  for (int k = 0; k < 8; ++k) o[8 * i + k] = buf[k];
}
