// A function IGC 1.0.5353 keeps out of line and clones per constant argument: the
// clone cloned_call calls is named `i32_func_i32_i32.7_1` in its vISA text.
__attribute__((noinline)) int i32_func_i32_i32(int a, int b) { return a * 3 - b; }
__kernel void call_twice(__global int *out, __global const int *a, __global const int *b) {
  int i = get_global_id(0);
  out[i] = i32_func_i32_i32(a[i], b[i]) + i32_func_i32_i32(b[i], 7);
}
__kernel void cloned_call(__global int *out, __global const int *a) {
  int i = get_global_id(0);
  out[i] = i32_func_i32_i32(a[i], 2);
}
