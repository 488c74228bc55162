// Float builtins (results compared within a few ULP).
__kernel void math1(__global float *out, __global const float *a, __global const float *b) {
  int i = get_global_id(0); float x = a[i], y = b[i]; __global float *o = out + 12 * i;
  o[0] = sin(x); o[1] = cos(x); o[2] = exp(x); o[3] = log(fabs(x) + 0.1f); o[4] = pow(fabs(x), y);
  o[5] = sqrt(fabs(x)); o[6] = atan2(x, y); o[7] = fmod(x * 7.0f, y); o[8] = cbrt(x);
  o[9] = tanh(x); o[10] = erf(x); o[11] = hypot(x, y);
}
__kernel void math2(__global float *out, __global const float *a) {
  int i = get_global_id(0); float x = a[i]; __global float *o = out + 8 * i;
  o[0] = ldexp(x, (int)(x * 10.0f)); o[1] = ilogb(x * 1000.0f); o[2] = logb(x * 1000.0f);
  o[3] = rint(x * 3.3f); o[4] = round(x * 3.3f); o[5] = trunc(x * 3.3f); o[6] = asinh(x); o[7] = expm1(x);
}
