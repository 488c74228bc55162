__kernel void lgamma_f(__global float *out, __global const float *in) {
  int i = get_global_id(0); out[i] = lgamma(in[i] * 3.0f);
}
__kernel void tgamma_f(__global float *out, __global const float *in) {
  int i = get_global_id(0); out[i] = tgamma(in[i] * 2.0f);
}
