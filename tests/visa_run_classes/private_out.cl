// Builtins that write through a private pointer, and structs passed to functions.
// LAUNCH 64 32
__kernel void sincos_f(__global float *out, __global const float *in) {
  int i = get_global_id(0); float c; float s = sincos(in[i], &c);
  out[2 * i] = s; out[2 * i + 1] = c;
}
__kernel void modf_f(__global float *out, __global const float *in) {
  int i = get_global_id(0); float ip; float f = modf(in[i] * 3.7f, &ip);
  out[2 * i] = f; out[2 * i + 1] = ip;
}
__kernel void frexp_f(__global float *out, __global int *e, __global const float *in) {
  int i = get_global_id(0); int x; out[i] = frexp(in[i] * 100.0f, &x); e[i] = x;
}
__kernel void remquo_f(__global float *out, __global int *q, __global const float *a, __global const float *b) {
  int i = get_global_id(0); int x; out[i] = remquo(a[i] * 10.0f, b[i], &x); q[i] = x & 7;
}
__kernel void lgamma_r_f(__global float *out, __global int *s, __global const float *in) {
  int i = get_global_id(0); int x; out[i] = lgamma_r(in[i] + 2.5f, &x); s[i] = x;
}
__kernel void fract_f(__global float *out, __global const float *in) {
  int i = get_global_id(0); float fl; float f = fract(in[i] * 5.3f, &fl);
  out[2 * i] = f; out[2 * i + 1] = fl;
}
__kernel void sincos_f4(__global float4 *out, __global const float4 *in) {
  int i = get_global_id(0); float4 c; float4 s = sincos(in[i], &c);
  out[2 * i] = s; out[2 * i + 1] = c;
}
typedef struct { int a; float b; int c[3]; } S;
__attribute__((noinline)) float use_struct(S s, int k) { return s.a * s.b + s.c[k % 3]; }
__kernel void struct_arg(__global float *out, __global const int *in) {
  int i = get_global_id(0);
  S s; s.a = in[i]; s.b = 0.5f * i; s.c[0] = i; s.c[1] = 2 * i; s.c[2] = in[i] - i;
  out[i] = use_struct(s, in[i]);
}
__kernel void private_array(__global int *out, __global const int *in) {
  int i = get_global_id(0);
  int t[8];
  for (int k = 0; k < 8; k++) t[k] = in[i] * k + i;
  out[i] = t[in[i] & 7] + t[(in[i] >> 3) & 7];
}
