// OCLOC_OPTIONS: -cl-denorms-are-zero
// Denormal products flush to zero: the kernel leaves %cr0's F denorm bit clear.
__kernel void denorms_are_zero(__global float *out, __global const float *a) {
  int i = get_global_id(0);
  float x = (a[i] * 1e-20f) * 1e-20f;
  out[i] = x;
  out[16 + i] = x * 1e30f;
}
