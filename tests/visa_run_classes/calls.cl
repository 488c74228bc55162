// Functions IGC keeps out of line (and 1.0.5353 clones per caller).
__attribute__((noinline)) int i32_func_i32_i32(int a, int b) { return a * 3 - b; }
__attribute__((noinline)) float f_func(float a, int n) { float r = a; for (int k = 0; k < n; k++) r = r * 0.5f + 1.0f; return r; }
__kernel void call_twice(__global int *out, __global const int *a, __global const int *b) {
  int i = get_global_id(0);
  out[i] = i32_func_i32_i32(a[i], b[i]) + i32_func_i32_i32(b[i], 7);
}
__kernel void call_other(__global int *out, __global const int *a) {
  int i = get_global_id(0);
  out[i] = i32_func_i32_i32(a[i], 2);
}
__kernel void call_float(__global float *out, __global const float *a, __global const int *n) {
  int i = get_global_id(0);
  out[i] = f_func(a[i], n[i] & 7);
}
