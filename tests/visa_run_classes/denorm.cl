// OCLOC_OPTIONS: -cl-denorms-are-zero
// EXPECT_FTZ
__kernel void ftz_mul(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  float x = in[i] * 1e-36f;
  out[2 * i] = x * 0.01f;
  out[2 * i + 1] = (x * 0.01f) * 1e20f;
}
