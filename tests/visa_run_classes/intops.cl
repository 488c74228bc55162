// Integer builtins, each lane checked against the host (PoCL).
#define IOPS(T, name) \
__kernel void name(__global T *out, __global const T *a, __global const T *b) { \
  int i = get_global_id(0); T x = a[i], y = b[i]; __global T *o = out + 12 * i; \
  o[0] = mul_hi(x, y); o[1] = add_sat(x, y); o[2] = sub_sat(x, y); o[3] = hadd(x, y); \
  o[4] = rhadd(x, y); o[5] = abs_diff(x, y); o[6] = rotate(x, y); o[7] = clz(x); \
  o[8] = popcount(x); o[9] = max(x, y); o[10] = mad_hi(x, y, x); o[11] = (T)abs(x); }
IOPS(int, iops_i32)
IOPS(uint, iops_u32)
IOPS(short, iops_i16)
IOPS(uchar, iops_u8)
IOPS(long, iops_i64)
IOPS(ulong, iops_u64)
__kernel void conv_sat(__global int *out, __global const float *f) {
  int i = get_global_id(0); float x = f[i] * 1e9f;
  out[4 * i] = convert_int_sat(x); out[4 * i + 1] = convert_char_sat(f[i] * 100.0f);
  out[4 * i + 2] = convert_uint_sat_rte(x); out[4 * i + 3] = convert_short_sat_rtz(x);
}
__kernel void mix24(__global int *out, __global const int *a, __global const int *b) {
  int i = get_global_id(0);
  out[3 * i] = mul24(a[i] >> 8, b[i] >> 8); out[3 * i + 1] = mad24(a[i] >> 8, b[i] >> 9, a[i]);
  out[3 * i + 2] = upsample((short)a[i], (ushort)b[i]);
}
