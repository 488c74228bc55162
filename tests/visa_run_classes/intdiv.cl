// Integer division and remainder of every width, divisors never zero.
#define DIV(T, name) \
__kernel void name(__global T *out, __global const T *a, __global const T *b) { \
  int i = get_global_id(0); \
  T d = b[i] == 0 ? (T)3 : b[i]; \
  out[2 * i] = a[i] / d; out[2 * i + 1] = a[i] % d; }
DIV(int, div_i32)
DIV(uint, div_u32)
DIV(short, div_i16)
DIV(ushort, div_u16)
DIV(char, div_i8)
DIV(uchar, div_u8)
DIV(long, div_i64)
DIV(ulong, div_u64)
__kernel void div_const(__global int *out, __global const int *a) {
  int i = get_global_id(0);
  out[3 * i] = a[i] / 7; out[3 * i + 1] = a[i] % 13; out[3 * i + 2] = (uint)a[i] / 10u;
}
